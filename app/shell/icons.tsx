/**
 * Menu icons by the MUI icon name the resource files and the server's menus use. Only these are bundled:
 * importing every MUI icon would add megabytes for a menu of a few dozen entries. Unknown names get a
 * neutral icon.
 */
import type { SvgIconComponent } from '@mui/icons-material';
import DevicesOtherIcon from '@mui/icons-material/DevicesOther';
import Inventory2Icon from '@mui/icons-material/Inventory2';
import RouterIcon from '@mui/icons-material/Router';
import DashboardIcon from '@mui/icons-material/Dashboard';
import HomeIcon from '@mui/icons-material/Home';
import SettingsIcon from '@mui/icons-material/Settings';
import PeopleIcon from '@mui/icons-material/People';
import SecurityIcon from '@mui/icons-material/Security';
import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive';
import MapIcon from '@mui/icons-material/Map';
import BarChartIcon from '@mui/icons-material/BarChart';
import DescriptionIcon from '@mui/icons-material/Description';
import FeedbackIcon from '@mui/icons-material/Feedback';
import ApartmentIcon from '@mui/icons-material/Apartment';
import FolderIcon from '@mui/icons-material/Folder';
import ArticleIcon from '@mui/icons-material/Article';
import SensorsIcon from '@mui/icons-material/Sensors';
import TimerIcon from '@mui/icons-material/Timer';
import ShareIcon from '@mui/icons-material/Share';
import HubIcon from '@mui/icons-material/Hub';
import WarningIcon from '@mui/icons-material/Warning';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import AccountTreeIcon from '@mui/icons-material/AccountTree';
import BadgeIcon from '@mui/icons-material/Badge';
import MemoryIcon from '@mui/icons-material/Memory';
import GroupsIcon from '@mui/icons-material/Groups';
import MeetingRoomIcon from '@mui/icons-material/MeetingRoom';
import CampaignIcon from '@mui/icons-material/Campaign';
import QuestionAnswerIcon from '@mui/icons-material/QuestionAnswer';
import HistoryIcon from '@mui/icons-material/History';
import AppsIcon from '@mui/icons-material/Apps';
import PolicyIcon from '@mui/icons-material/Policy';
import HomeWorkIcon from '@mui/icons-material/HomeWork';
import PersonSearchIcon from '@mui/icons-material/PersonSearch';
import AppSettingsAltIcon from '@mui/icons-material/AppSettingsAlt';
import DirectionsCarIcon from '@mui/icons-material/DirectionsCar';
import PersonPinCircleIcon from '@mui/icons-material/PersonPinCircle';
import TouchAppIcon from '@mui/icons-material/TouchApp';
import CreditCardIcon from '@mui/icons-material/CreditCard';
import FunctionsIcon from '@mui/icons-material/Functions';
import SystemUpdateIcon from '@mui/icons-material/SystemUpdate';
import HailIcon from '@mui/icons-material/Hail';
import DoorFrontIcon from '@mui/icons-material/DoorFront';
import GroupWorkIcon from '@mui/icons-material/GroupWork';
import ScheduleIcon from '@mui/icons-material/Schedule';
import Groups3Icon from '@mui/icons-material/Groups3';
import Diversity3Icon from '@mui/icons-material/Diversity3';
import ReportProblemIcon from '@mui/icons-material/ReportProblem';
import PhonelinkRingIcon from '@mui/icons-material/PhonelinkRing';
import ApiIcon from '@mui/icons-material/Api';
import MonitorHeartIcon from '@mui/icons-material/MonitorHeart';
import StorageIcon from '@mui/icons-material/Storage';
import BugReportIcon from '@mui/icons-material/BugReport';
import HiveIcon from '@mui/icons-material/Hive';
import InfoIcon from '@mui/icons-material/Info';
import MenuBookIcon from '@mui/icons-material/MenuBook';
import PhoneAndroidIcon from '@mui/icons-material/PhoneAndroid';
import HandshakeIcon from '@mui/icons-material/Handshake';
import PrivacyTipIcon from '@mui/icons-material/PrivacyTip';
import RateReviewIcon from '@mui/icons-material/RateReview';
import NotificationsNoneIcon from '@mui/icons-material/NotificationsNone';

const icons: Record<string, SvgIconComponent> = {
  DevicesOther: DevicesOtherIcon,
  Inventory2: Inventory2Icon,
  Router: RouterIcon,
  Dashboard: DashboardIcon,
  Home: HomeIcon,
  Settings: SettingsIcon,
  People: PeopleIcon,
  Security: SecurityIcon,
  NotificationsActive: NotificationsActiveIcon,
  Map: MapIcon,
  BarChart: BarChartIcon,
  Description: DescriptionIcon,
  Feedback: FeedbackIcon,
  Apartment: ApartmentIcon,
  Folder: FolderIcon,
  Article: ArticleIcon,
  Sensors: SensorsIcon,
  Timer: TimerIcon,
  Share: ShareIcon,
  Hub: HubIcon,
  Warning: WarningIcon,
  AdminPanelSettings: AdminPanelSettingsIcon,
  AccountTree: AccountTreeIcon,
  Badge: BadgeIcon,
  Memory: MemoryIcon,
  Groups: GroupsIcon,
  MeetingRoom: MeetingRoomIcon,
  Campaign: CampaignIcon,
  QuestionAnswer: QuestionAnswerIcon,
  History: HistoryIcon,
  Apps: AppsIcon,
  Policy: PolicyIcon,
  HomeWork: HomeWorkIcon,
  PersonSearch: PersonSearchIcon,
  AppSettingsAlt: AppSettingsAltIcon,
  DirectionsCar: DirectionsCarIcon,
  PersonPinCircle: PersonPinCircleIcon,
  TouchApp: TouchAppIcon,
  CreditCard: CreditCardIcon,
  Functions: FunctionsIcon,
  SystemUpdate: SystemUpdateIcon,
  Hail: HailIcon,
  DoorFront: DoorFrontIcon,
  GroupWork: GroupWorkIcon,
  Schedule: ScheduleIcon,
  Groups3: Groups3Icon,
  Diversity3: Diversity3Icon,
  ReportProblem: ReportProblemIcon,
  PhonelinkRing: PhonelinkRingIcon,
  Hive: HiveIcon,
  Info: InfoIcon,
  MenuBook: MenuBookIcon,
  PhoneAndroid: PhoneAndroidIcon,
  Handshake: HandshakeIcon,
  PrivacyTip: PrivacyTipIcon,
  RateReview: RateReviewIcon,
  NotificationsNone: NotificationsNoneIcon,
  Api: ApiIcon,
  MonitorHeart: MonitorHeartIcon,
  Storage: StorageIcon,
  BugReport: BugReportIcon,
};

/** Accepts `Router`, `router`, `RouterOutlined` and `md-router`-style legacy names. */
export function menuIcon(name?: string | null): SvgIconComponent {
  if (!name) return ArticleIcon;
  const bare = name.replace(/^(md-|ios-|el-icon-)/, '').replace(/(Outlined|Rounded|Sharp|TwoTone)$/, '');
  const key = Object.keys(icons).find((k) => k.toLowerCase() === bare.replace(/[-_]/g, '').toLowerCase());
  return key ? icons[key] : ArticleIcon;
}
