/** Top bar: sidebar toggle, breadcrumb (section / page), unsigned alarms, messages, full screen, language, user menu. */
import { Suspense, useEffect, useState } from 'react';
import { lazyChunk } from './chunks';
import { Link, useLocation } from 'react-router-dom';
import { useGetIdentity, useLogout, useTranslate } from 'react-admin';
import { Avatar, Box, Breadcrumbs, Divider, IconButton, ListItemIcon, MenuItem, Tooltip, Typography } from '@mui/material';
import { AnchoredMenu } from '../components/AnchoredMenu';
import MenuIcon from '@mui/icons-material/Menu';
import MenuOpenIcon from '@mui/icons-material/MenuOpen';
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import FullscreenExitIcon from '@mui/icons-material/FullscreenExit';
import LockIcon from '@mui/icons-material/Lock';
import LogoutIcon from '@mui/icons-material/Logout';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { findTrail, useMenus, useMenuTitle, usePageTitle } from './menus';
import { LanguageSwitch } from './LanguageSwitch';
import { HOME_PATH } from './tabs';
import { TOPBAR_ROW } from './theme';
import { BrokerStateChip } from '../devices/live/BrokerState';
import { MessageBell } from '../platform/messages/MessageBell';
import { AlarmSummary } from '../security/alarms/AlarmSummary';

// Opened now and then: its code loads when asked for.
const PasswordDialog = lazyChunk(() => import('./PasswordDialog').then((m) => ({ default: m.PasswordDialog })));

export function TopBar({ collapsed, onToggle }: { collapsed: boolean; onToggle: () => void }) {
  const translate = useTranslate();
  const toggleLabel = translate(collapsed ? 'shell.expand' : 'shell.collapse');
  return (
    <Box
      component="header"
      sx={{
        ...TOPBAR_ROW,
        px: 1.5,
        bgcolor: 'background.paper',
        borderBottom: '1px solid',
        borderColor: 'divider',
      }}
    >
      <Tooltip title={toggleLabel}>
        <IconButton data-testid="sidebar-toggle" aria-label={toggleLabel} aria-expanded={!collapsed} onClick={onToggle}>
          {collapsed ? <MenuIcon /> : <MenuOpenIcon />}
        </IconButton>
      </Tooltip>
      <Trail />
      <Box sx={{ flex: 1 }} />
      <BrokerStateChip />
      <AlarmSummary />
      <MessageBell />
      <FullscreenToggle />
      <LanguageSwitch />
      <UserMenu />
    </Box>
  );
}

function Trail() {
  const { pathname } = useLocation();
  const menus = useMenus();
  const menuTitle = useMenuTitle();
  const pageTitle = usePageTitle();
  const translate = useTranslate();
  const trail = findTrail(menus, pathname);
  return (
    <Breadcrumbs data-testid="breadcrumb" aria-label="breadcrumb" sx={{ fontSize: 14, ml: 1 }}>
      {pathname !== HOME_PATH && (
        <Typography
          component={Link}
          to={HOME_PATH}
          sx={{
            fontSize: 14,
            color: 'text.secondary',
            textDecoration: 'none',
            '&:visited': { color: 'text.secondary' },
            '&:hover': { color: 'primary.main' },
          }}
        >
          {translate('shell.home')}
        </Typography>
      )}
      {trail?.section && (
        <Typography color="text.secondary" sx={{ fontSize: 14 }}>
          {menuTitle(trail.section)}
        </Typography>
      )}
      <Typography color="text.primary" sx={{ fontSize: 14 }} aria-current="page">
        {pageTitle(pathname)}
      </Typography>
    </Breadcrumbs>
  );
}

function FullscreenToggle() {
  const translate = useTranslate();
  const [full, setFull] = useState(() => typeof document !== 'undefined' && !!document.fullscreenElement);
  useEffect(() => {
    const sync = () => setFull(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);
  if (typeof document !== 'undefined' && !document.fullscreenEnabled) return null;
  const label = translate(full ? 'shell.exitFullscreen' : 'shell.fullscreen');
  return (
    <Tooltip title={label}>
      <IconButton
        data-testid="fullscreen-toggle"
        aria-label={label}
        aria-pressed={full}
        onClick={() => {
          const request = full ? document.exitFullscreen() : document.documentElement.requestFullscreen();
          request.catch(() => undefined);
        }}
      >
        {full ? <FullscreenExitIcon /> : <FullscreenIcon />}
      </IconButton>
    </Tooltip>
  );
}

function UserMenu() {
  const translate = useTranslate();
  const logout = useLogout();
  const { identity } = useGetIdentity();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [changing, setChanging] = useState(false);
  const name = identity?.fullName ?? '';
  return (
    <>
      <Box
        component="button"
        type="button"
        data-testid="user-menu"
        aria-label={translate('shell.userMenu')}
        aria-haspopup="menu"
        onClick={(e) => setAnchor(e.currentTarget)}
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 1,
          border: 0,
          bgcolor: 'transparent',
          cursor: 'pointer',
          px: 1,
          py: 0.5,
          borderRadius: 1,
          font: 'inherit',
          color: 'text.primary',
          '&:hover': { bgcolor: 'action.hover' },
        }}
      >
        <Avatar src={identity?.avatar} sx={{ width: 28, height: 28, fontSize: 14, bgcolor: 'primary.main' }}>
          {name.slice(0, 1)}
        </Avatar>
        <Typography sx={{ fontSize: 14, maxWidth: 140 }} noWrap>
          {name}
        </Typography>
        <ExpandMore fontSize="small" />
      </Box>
      <AnchoredMenu anchor={anchor} onClose={() => setAnchor(null)}>
        <MenuItem
          data-testid="change-password"
          onClick={() => {
            setAnchor(null);
            setChanging(true);
          }}
        >
          <ListItemIcon>
            <LockIcon fontSize="small" />
          </ListItemIcon>
          {translate('shell.changePassword')}
        </MenuItem>
        <Divider />
        <MenuItem
          data-testid="logout"
          onClick={() => {
            setAnchor(null);
            logout();
          }}
        >
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          {translate('shell.logout')}
        </MenuItem>
      </AnchoredMenu>
      {changing && (
        <Suspense>
          <PasswordDialog open onClose={() => setChanging(false)} />
        </Suspense>
      )}
    </>
  );
}
