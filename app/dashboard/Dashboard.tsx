/**
 * Home dashboard (spec 000 §2): devices online, today's messages, today's warnings, the rental alarms of the
 * user's jurisdiction for those who handle them and, for administrators, the users, each a card with its
 * own refresh; the message history by range; CPU and memory of the server for the holders of its codes
 * (contract/dashboard.ts); and the device map. The
 * device figures are shown to those who see devices (an officer's home is the alarms and the server).
 * Everything comes from the `home.*` calls (answers in `data.data`).
 */
import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { lazyChunk } from '../shell/chunks';
import {
  Box,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  IconButton,
  LinearProgress,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useGetIdentity, useTranslate } from 'react-admin';
import { useCallQuery } from '../components/calls';
import type { CallAnswer, CallBody, CallName } from '../../adapters/dataProvider';
import { WhenVisible } from '../components/WhenVisible';
import { getStoredPermissions, getStoredUser } from '../../adapters/authProvider';
import { SYSTEM_LOAD_CODES } from '../../contract/dashboard';
import { ChartsAfter, LEGEND_HEIGHT } from '../components/charts';
import { Gauge, GroupedBars, HistoryChart, MiniLine, PALETTE, UserPie, type Chart } from './charts';

// Leaflet is the heaviest part and the map sits below the fold: it loads when scrolled to.
const DeviceMap = lazyChunk(() => import('./DeviceMap'));
/** The map card's height (its 420 px map, title and padding), held while it is not loaded. */
const MAP_CARD_HEIGHT = 500;
/**
 * The charts' heights, held by an empty box while their data is on its way: the page keeps its length
 * (nothing below jumps, and the map's place stays below the first screen instead of loading the map).
 */
const BARS_HEIGHT = 130;
const RECORD_HEIGHT = 150;
const WARN_HEIGHT = 110;
const USERS_HEIGHT = 120;
const HISTORY_HEIGHT = 256;

const HISTORY_TYPES = [0, 1, 2, 3] as const;
const DEFAULT_HISTORY = 3;
const SYSTEM_REFRESH_MS = 15_000;
const TYPE_KEYS = [1, 2, 3, 4, 5, 6] as const;
/** Who may list devices sees the dashboard's device figures, history and map. */
const DEVICE_LIST = 'device:list';
/** Who may list the rental alarms gets their figures (server/dashboard/home.ts); the administrators get the users'. */
const ALARM_LIST = 'alarm:list';
const ADMINISTRATOR = 1;

/**
 * Whether a card whose figures the server may refuse (null: not this user's business) is shown: as the
 * answer says once it is there, and meanwhile as the stored session foretells, so that the first row
 * has its final cards from the start and nothing under it moves when the answers arrive.
 */
const shown = (answer: unknown, foretold: boolean) => (answer === undefined ? foretold : answer !== null);

/** The dashboard's calls; each answers its figures in `data.data`. */
type HomeCall = Extract<CallName, `home.${string}`>;
/** What a dashboard call answers (its `data.data`; null: nothing for this user). */
type HomeData<N extends HomeCall> = NonNullable<CallAnswer<N>['data']>;
type WarnTotals = HomeData<'home.warnings'>;

/** A card's refresh icon while its calls are out: in the icon's 20 px, so the card's header keeps its height. */
const SPINNER = <CircularProgress size={16} sx={{ m: 0.25 }} />;

/** A dashboard call's answer, and a reload for the card's refresh icon. */
interface Home<T> {
  data: T | null | undefined;
  loading: boolean;
  reload: () => void;
}

/** A dashboard call (none when `name` is null): its `data.data`. */
function useHome<N extends HomeCall>(name: N | null, body: CallBody<N> = {}): Home<HomeData<N>> {
  const remote = useCallQuery(name, body);
  return { data: remote.data ? remote.data.data : undefined, loading: remote.loading, reload: remote.reload };
}

/** A figure card; `calls`: the calls its figures come from, which it spins while loading and its refresh icon asks again. */
function StatCard({ id, title, value, calls, children, accent }: { id: string; title: string; value: ReactNode; calls: Pick<Home<unknown>, 'loading' | 'reload'>[]; children?: ReactNode; accent: string }) {
  const translate = useTranslate();
  const loading = calls.some((c) => c.loading);
  const onRefresh = () => calls.forEach((c) => c.reload());
  return (
    <Card data-testid={`dashboard-card-${id}`} sx={{ position: 'relative', overflow: 'hidden', display: 'flex', flexDirection: 'column' }}>
      <Box sx={{ height: 3, bgcolor: accent }} />
      <CardContent sx={{ pb: 1, flex: 1, display: 'flex', flexDirection: 'column' }}>
        <Stack direction="row" sx={{ alignItems: 'center' }}>
          <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
            {title}
          </Typography>
          <Tooltip title={translate('dashboard.refresh')}>
            <IconButton size="small" onClick={onRefresh} aria-label={translate('dashboard.refresh')} data-testid={`dashboard-refresh-${id}`}>
              {loading ? SPINNER : <RefreshIcon fontSize="small" />}
            </IconButton>
          </Tooltip>
        </Stack>
        <Typography sx={{ fontSize: 28, fontWeight: 700, lineHeight: 1.2, my: 0.5 }}>{value}</Typography>
        {children}
      </CardContent>
    </Card>
  );
}

/** One "label value" line under a card's figure. */
function Figure({ label, value, testId, color, dot }: { label: string; value: ReactNode; testId: string; color?: string; dot?: string }) {
  return (
    <Stack direction="row" sx={{ fontSize: 13, py: 0.25, alignItems: 'center', gap: 1 }}>
      {dot && <Box component="span" sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: dot, flexShrink: 0 }} />}
      <Typography component="span" sx={{ fontSize: 13, color: 'text.secondary', flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        {label}
      </Typography>
      <Typography component="span" sx={{ fontSize: 13, fontWeight: 600, color }} data-testid={testId}>
        {value}
      </Typography>
    </Stack>
  );
}

/**
 * The first row's grid: one column per card, or — five cards on a screen too narrow for five — three
 * above two, each row filled (six columns, the first three cards two wide, the last two three wide).
 */
function cardRow(count: number) {
  if (count < 5) return { display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)', lg: `repeat(${count}, 1fr)` } };
  return {
    display: 'grid',
    gap: 2,
    gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)', lg: 'repeat(6, 1fr)', xl: `repeat(${count}, 1fr)` },
    '& > *': { gridColumn: { lg: 'span 2', xl: 'auto' } },
    '& > :nth-of-type(n+4)': { gridColumn: { lg: 'span 3', xl: 'auto' } },
  };
}

const fmt = (n: number | undefined) => (n === undefined ? '—' : n.toLocaleString());

/**
 * Today's count with the month's and the unhandled ones, and the month's line by day: the devices'
 * warnings and the rental alarms (their texts under dashboard.warn and dashboard.alarm).
 */
function TallyCard({ id, accent, colors, totals, month }: { id: 'warn' | 'alarm'; accent: string; colors: string[]; totals: Home<WarnTotals>; month: Home<Chart> }) {
  const translate = useTranslate();
  const t = totals.data;
  return (
    <StatCard
      id={id}
      accent={accent}
      title={translate(`dashboard.${id}.title`)}
      calls={[totals, month]}
      value={<span data-testid={`dashboard-${id}-day`}>{fmt(t?.dayCount)}</span>}
    >
      <Figure label={translate(`dashboard.${id}.month`)} value={fmt(t?.monthCount)} testId={`dashboard-${id}-month`} />
      <Figure label={translate(`dashboard.${id}.dayNoDeal`)} value={fmt(t?.dayNoDealCount)} testId={`dashboard-${id}-day-nodeal`} color="#f5222d" />
      <Figure label={translate(`dashboard.${id}.monthNoDeal`)} value={fmt(t?.monthNoDealCount)} testId={`dashboard-${id}-month-nodeal`} color="#fa8c16" />
      <Box sx={{ flex: 1 }} />
      {month.data ? <MiniLine chart={month.data} title={translate(`dashboard.${id}.month`)} label={(key) => translate(`dashboard.${id}.${key}`)} colors={colors} height={WARN_HEIGHT} /> : <Box sx={{ height: WARN_HEIGHT }} />}
    </StatCard>
  );
}

function Welcome() {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  const user = getStoredUser();
  const name = identity?.fullName || user?.fChineseName || '';
  return (
    <Typography component="h1" variant="h6" sx={{ fontSize: 18 }} data-testid="home-welcome">
      {translate('pages.home.welcome', { name })}
    </Typography>
  );
}

export function Dashboard() {
  const translate = useTranslate();
  const seesDevices = getStoredPermissions().includes(DEVICE_LIST);
  const ifDevices = <N extends HomeCall>(name: N) => (seesDevices ? name : null);
  const devices = useHome(ifDevices('home.devices'));
  const perProduct = useHome(ifDevices('home.devicesOnline'));
  const records = useHome(ifDevices('home.messages'));
  const recordMonth = useHome(ifDevices('home.messagesByMonth'));
  const warns = useHome(ifDevices('home.warnings'));
  const warnMonth = useHome(ifDevices('home.warningsByMonth'));
  const alarms = useHome('home.alarms');
  const alarmMonth = useHome('home.alarmsByMonth');
  const users = useHome('home.users');
  const [historyType, setHistoryType] = useState<number>(DEFAULT_HISTORY);
  const history = useHome(ifDevices('home.messagesMore'), { type: historyType });
  // The server's card is for those holding one of its codes; the others are not asked for it.
  const seesSystem = getStoredPermissions().some((c) => SYSTEM_LOAD_CODES.includes(c));
  const system = useHome(seesSystem ? 'home.load' : null);

  const reloadSystem = system.reload;
  useEffect(() => {
    const timer = setInterval(reloadSystem, SYSTEM_REFRESH_MS);
    return () => clearInterval(timer);
  }, [reloadSystem]);

  // The first screen is the figures: the charts' code (nivo) is fetched once every call has answered and
  // the page is painted, and their places hold their size meanwhile (ChartsAfter).
  const answered = ![devices, perProduct, records, recordMonth, warns, warnMonth, alarms, alarmMonth, users, history, system].some((c) => c.loading);

  const recordLabel = (key: string) => translate(`dashboard.record.${key}`);
  const d = devices.data;
  const r = records.data;
  const a = alarms.data;
  const u = users.data;
  const s = system.data;
  const showsAlarms = shown(a, getStoredPermissions().includes(ALARM_LIST));
  const showsUsers = shown(u, getStoredUser()?.fAdmin === ADMINISTRATOR);
  const cardCount = (seesDevices ? 3 : 0) + (showsAlarms ? 1 : 0) + (showsUsers ? 1 : 0);

  const systemCard = seesSystem && (
    <Card data-testid="dashboard-system">
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'center' }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600, flex: 1 }}>
            {translate('dashboard.system.title')}
          </Typography>
          <IconButton size="small" onClick={system.reload} aria-label={translate('dashboard.refresh')} data-testid="dashboard-refresh-system">
            {system.loading ? SPINNER : <RefreshIcon fontSize="small" />}
          </IconButton>
        </Stack>
        <Stack direction="row" sx={{ mt: 2, flexWrap: 'wrap' }}>
          <Gauge
            testId="dashboard-cpu"
            value={s?.cpu ?? 0}
            max={100}
            unit="%"
            label={translate('dashboard.system.cpu')}
            color={(s?.cpu ?? 0) > 80 ? '#f5222d' : '#1677ff'}
            caption={s ? `${translate('dashboard.system.cores', { count: s.cpuCount })} · ${translate('dashboard.system.load', { load: s.loadavg[0] })}` : undefined}
          />
          <Gauge
            testId="dashboard-ram"
            value={s?.ram ?? 0}
            max={s?.ramMax ?? 8}
            unit="G"
            label={translate('dashboard.system.ram')}
            color={s && s.ram / s.ramMax > 0.85 ? '#f5222d' : '#36cfc9'}
            caption={s ? translate('dashboard.system.total', { value: s.ramTotal }) : undefined}
          />
        </Stack>
        {s && (
          <Typography variant="caption" color="text.secondary" component="div" sx={{ textAlign: 'center', mt: 1 }} data-testid="dashboard-process">
            {translate('dashboard.system.process', { value: `CPU ${s.processCpu}% · ${(s.processRam * 1024).toFixed(0)} MB` })}
          </Typography>
        )}
      </CardContent>
    </Card>
  );

  const alarmCard = showsAlarms && <TallyCard id="alarm" accent="#fa541c" colors={['#fa541c', '#faad14']} totals={alarms} month={alarmMonth} />;

  // Without the device figures the alarms sit beside the server's card: there is no history or map.
  if (!seesDevices)
    return (
      <ChartsAfter ready={answered}>
        <Box data-testid="home-page" sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Welcome />
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: alarmCard && systemCard ? '2fr 1fr' : alarmCard ? '1fr' : '1fr 2fr' } }}>
            {alarmCard}
            {systemCard}
          </Box>
        </Box>
      </ChartsAfter>
    );

  return (
    <ChartsAfter ready={answered}>
      <Box data-testid="home-page" sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <Welcome />
        <Box sx={cardRow(cardCount)}>
          <StatCard
            id="device"
            accent="#1677ff"
            title={translate('dashboard.device.title')}
            calls={[devices, perProduct]}
            value={
              <>
                <span data-testid="dashboard-device-online">{fmt(d?.onlineCount)}</span>
                <Typography component="span" sx={{ fontSize: 18, color: 'text.secondary' }}>
                  {' / '}
                  <span data-testid="dashboard-device-all">{fmt(d?.allCount)}</span>
                </Typography>
              </>
            }
          >
            <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', columnGap: 2 }}>
              {TYPE_KEYS.map((t) => {
                const c = d?.[`device${t}`];
                return <Figure key={t} label={translate(`dashboard.types.${t}`)} value={c ? `${c.deviceOnlineCount}/${c.deviceCount}` : '—'} testId={`dashboard-device-type-${t}`} />;
              })}
            </Box>
            {perProduct.data ? <GroupedBars chart={perProduct.data} title={translate('dashboard.device.chart')} label={(k) => translate(k === 'deviceOnlineCount' ? 'dashboard.device.online' : 'dashboard.device.total')} height={BARS_HEIGHT} /> : <Box sx={{ height: BARS_HEIGHT }} />}
          </StatCard>

          <StatCard
            id="record"
            accent="#36cfc9"
            title={translate('dashboard.record.title')}
            calls={[records, recordMonth]}
            value={<span data-testid="dashboard-record-day">{fmt(r?.dayCount)}</span>}
          >
            <Figure label={translate('dashboard.record.month')} value={fmt(r?.monthCount)} testId="dashboard-record-month" />
            <Box sx={{ flex: 1 }} />
            {recordMonth.data ? <MiniLine chart={recordMonth.data} title={translate('dashboard.record.month')} label={recordLabel} colors={['#36cfc9', '#1677ff']} height={RECORD_HEIGHT} /> : <Box sx={{ height: RECORD_HEIGHT }} />}
          </StatCard>

          <TallyCard id="warn" accent="#f5222d" colors={['#f5222d', '#faad14']} totals={warns} month={warnMonth} />

          {alarmCard}

          {showsUsers && (
            <StatCard id="user" accent="#722ed1" title={translate('dashboard.user.title')} calls={[users]} value={<span data-testid="dashboard-user-all">{fmt(u?.allCount)}</span>}>
              <Figure label={translate('dashboard.user.admin')} value={fmt(u?.adminCount)} testId="dashboard-user-admin" dot={PALETTE[3]} />
              <Figure label={translate('dashboard.user.agent')} value={fmt(u?.agentCount)} testId="dashboard-user-agent" dot={PALETTE[2]} />
              <Figure label={translate('dashboard.user.general')} value={fmt(u?.generalCount)} testId="dashboard-user-general" dot={PALETTE[0]} />
              {u ? (
                <UserPie
                  title={translate('dashboard.user.title')}
                  parts={[
                    { label: translate('dashboard.user.admin'), value: u.adminCount },
                    { label: translate('dashboard.user.agent'), value: u.agentCount },
                    { label: translate('dashboard.user.general'), value: u.generalCount },
                  ]}
                  height={USERS_HEIGHT}
                />
              ) : (
                <Box sx={{ height: USERS_HEIGHT }} />
              )}
            </StatCard>
          )}
        </Box>

        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: systemCard ? '2fr 1fr' : '1fr' } }}>
          <Card data-testid="dashboard-history">
            <CardContent>
              <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ alignItems: { sm: 'center' }, gap: 1 }}>
                <Typography variant="subtitle1" sx={{ fontWeight: 600, flex: 1 }}>
                  {translate('dashboard.history.title')}
                </Typography>
                {/* Four short choices as chips: a radio group, and lighter than MUI's radios on the first screen. */}
                <Stack direction="row" role="radiogroup" aria-label={translate('dashboard.history.title')} data-testid="dashboard-history-type" sx={{ gap: 1, flexWrap: 'wrap' }}>
                  {HISTORY_TYPES.map((t) => (
                    <Chip
                      key={t}
                      size="small"
                      role="radio"
                      aria-checked={historyType === t}
                      label={translate(`dashboard.history.${t}`)}
                      color={historyType === t ? 'primary' : 'default'}
                      variant={historyType === t ? 'filled' : 'outlined'}
                      onClick={() => setHistoryType(t)}
                      data-testid={`dashboard-history-${t}`}
                    />
                  ))}
                </Stack>
              </Stack>
              <Box sx={{ height: 4 }}>{history.loading && <LinearProgress />}</Box>
              {history.data ? <HistoryChart chart={history.data} title={translate('dashboard.history.title')} label={(k) => translate(k === 'warn' ? 'dashboard.warn.warn' : `dashboard.record.${k}`)} height={HISTORY_HEIGHT} /> : <Box sx={{ height: HISTORY_HEIGHT + LEGEND_HEIGHT }} />}
            </CardContent>
          </Card>
          {systemCard}
        </Box>

        <WhenVisible height={MAP_CARD_HEIGHT} testId="dashboard-map-place">
          <Suspense fallback={<LinearProgress />}>
            <DeviceMap />
          </Suspense>
        </WhenVisible>
      </Box>
    </ChartsAfter>
  );
}

export default Dashboard;
