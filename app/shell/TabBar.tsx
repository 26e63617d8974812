/**
 * Tab bar under the top bar: one tab per opened page, home first and not closable. A tab's context menu
 * closes it, the others or all; the menu at the right end does the same for the current page.
 */
import { useEffect, useRef, useState } from 'react';
import type { MouseEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import { Box, IconButton, Menu, MenuItem, Tooltip } from '@mui/material';
import { AnchoredMenu } from '../components/AnchoredMenu';
import CloseIcon from '@mui/icons-material/Close';
import MoreHoriz from '@mui/icons-material/MoreHoriz';
import HomeIcon from '@mui/icons-material/Home';
import { closeAllTabs, closeOtherTabs, closeTab, HOME_PATH, useTabs } from './tabs';
import { isUsersPage, useMenus, usePageTitle } from './menus';
import { TABBAR_HEIGHT } from './theme';

export function TabBar() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const menus = useMenus();
  // A tab kept from before the menus changed (a role lost a page) is not offered again.
  const tabs = useTabs().filter((tab) => isUsersPage(menus, tab.path));
  const title = usePageTitle();
  const [context, setContext] = useState<{ x: number; y: number; path: string } | null>(null);
  const [actions, setActions] = useState<HTMLElement | null>(null);
  const strip = useRef<HTMLDivElement>(null);

  // Keep the active tab in view when many are open.
  useEffect(() => {
    strip.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [pathname, tabs.length]);

  const close = (path: string) => {
    const next = closeTab(path, pathname);
    if (next) navigate(next);
  };
  const closeOthers = (keep: string) => {
    closeOtherTabs(keep);
    if (keep !== pathname) navigate(tabs.find((t) => t.path === keep)?.fullPath ?? keep);
  };
  const closeAll = () => {
    closeAllTabs();
    if (pathname !== HOME_PATH) navigate(HOME_PATH);
  };

  const contextItems = (path: string, done: () => void) => [
    path !== HOME_PATH && (
      <MenuItem key="close" data-testid="tab-menu-close" onClick={() => (done(), close(path))}>
        {translate('shell.closeTab')}
      </MenuItem>
    ),
    <MenuItem key="others" data-testid="tab-close-others" onClick={() => (done(), closeOthers(path))}>
      {translate('shell.closeOthers')}
    </MenuItem>,
    <MenuItem key="all" data-testid="tab-close-all" onClick={() => (done(), closeAll())}>
      {translate('shell.closeAll')}
    </MenuItem>,
  ];

  return (
    <Box
      data-testid="tab-bar"
      sx={{
        height: TABBAR_HEIGHT,
        flexShrink: 0,
        display: 'flex',
        alignItems: 'center',
        bgcolor: 'background.paper',
        borderBottom: '1px solid',
        borderColor: 'divider',
        boxShadow: '0 1px 3px rgba(0,21,41,0.06)',
        px: 1,
        gap: 1,
      }}
    >
      <Box
        ref={strip}
        role="tablist"
        aria-label={translate('shell.tabs')}
        sx={{ flex: 1, display: 'flex', gap: 0.75, overflowX: 'auto', scrollbarWidth: 'none', '&::-webkit-scrollbar': { display: 'none' } }}
      >
        {tabs.map((tab) => {
          const active = tab.path === pathname;
          const label = title(tab.path);
          const home = tab.path === HOME_PATH;
          return (
            <Box
              key={tab.path}
              role="tab"
              tabIndex={0}
              aria-selected={active}
              data-testid="tab"
              data-path={tab.path}
              onClick={() => !active && navigate(tab.fullPath)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') navigate(tab.fullPath);
                if ((e.key === 'Delete' || e.key === 'Backspace') && !home) close(tab.path);
              }}
              onContextMenu={(e: MouseEvent) => {
                e.preventDefault();
                setContext({ x: e.clientX, y: e.clientY, path: tab.path });
              }}
              onAuxClick={(e: MouseEvent) => {
                if (e.button === 1 && !home) close(tab.path);
              }}
              sx={{
                display: 'flex',
                alignItems: 'center',
                gap: 0.5,
                flexShrink: 0,
                // Home stays pinned at the left edge while the other tabs scroll under it.
                ...(home ? { position: 'sticky', left: 0, zIndex: 1, boxShadow: '6px 0 6px -4px rgba(0,21,41,0.18)' } : {}),
                height: 28,
                pl: 1.25,
                pr: home ? 1.25 : 0.5,
                fontSize: 13,
                cursor: 'pointer',
                userSelect: 'none',
                whiteSpace: 'nowrap',
                borderRadius: 1,
                border: '1px solid',
                borderColor: active ? 'primary.main' : 'divider',
                bgcolor: active ? 'primary.main' : 'background.paper',
                color: active ? 'primary.contrastText' : 'text.secondary',
                '&:hover': active ? {} : { color: 'primary.main', borderColor: 'primary.light' },
                '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.light', outlineOffset: 1 },
              }}
            >
              {home ? (
                <HomeIcon sx={{ fontSize: 15 }} />
              ) : (
                active && <Box component="span" sx={{ width: 6, height: 6, borderRadius: '50%', bgcolor: 'currentColor' }} />
              )}
              <span>{label}</span>
              {!home && (
                <IconButton
                  size="small"
                  data-testid="tab-close"
                  aria-label={`${translate('shell.closeTab')} ${label}`}
                  onClick={(e) => {
                    e.stopPropagation();
                    close(tab.path);
                  }}
                  sx={{ p: 0.25, color: 'inherit', '&:hover': { bgcolor: active ? 'rgba(255,255,255,0.2)' : 'action.hover' } }}
                >
                  <CloseIcon sx={{ fontSize: 14 }} />
                </IconButton>
              )}
            </Box>
          );
        })}
      </Box>
      <Tooltip title={translate('shell.tabActions')}>
        <IconButton
          data-testid="tab-actions"
          aria-label={translate('shell.tabActions')}
          aria-haspopup="menu"
          onClick={(e) => setActions(e.currentTarget)}
        >
          <MoreHoriz fontSize="small" />
        </IconButton>
      </Tooltip>
      <AnchoredMenu anchor={actions} onClose={() => setActions(null)}>
        {contextItems(pathname, () => setActions(null)).slice(1)}
      </AnchoredMenu>
      <Menu
        open={!!context}
        onClose={() => setContext(null)}
        anchorReference="anchorPosition"
        anchorPosition={context ? { top: context.y, left: context.x } : undefined}
      >
        {context && contextItems(context.path, () => setContext(null))}
      </Menu>
    </Box>
  );
}
