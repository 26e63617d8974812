/**
 * The sidebar: product name on top, then the server's menu tree. Expanded it is 256 px with foldable
 * sections; collapsed it is 64 px of icons, and a section's pages open in a flyout beside it.
 */
import { useEffect, useState } from 'react';
import type { MouseEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import { Box, Collapse, List, ListItemButton, ListItemIcon, ListItemText, MenuItem, Tooltip, Typography } from '@mui/material';
import { AnchoredMenu } from '../components/AnchoredMenu';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Hub from '@mui/icons-material/Hub';
import type { MenuNode } from '../../adapters/authProvider';
import { findTrail, pathOf, useMenus, useMenuTitle } from './menus';
import { menuIcon } from './icons';
import { sidebarColors, SIDEBAR_COLLAPSED_WIDTH, SIDEBAR_WIDTH, TOPBAR_ROW } from './theme';

const testId = (node: MenuNode) =>
  String(node.component && node.component !== 'Main' ? node.component : node.menuUri || node.id).replace(/^\//, '');

export function Sidebar({ collapsed }: { collapsed: boolean }) {
  const menus = useMenus();
  const translate = useTranslate();
  const { pathname } = useLocation();
  const trail = findTrail(menus, pathname);
  // The section of the page on screen unfolds by itself, so a deep link shows where it is: from the first
  // render on a page load (no unfolding animation, nothing under it moves), then on each navigation.
  const [open, setOpen] = useState<Record<string, boolean>>(() => (trail?.section ? { [String(trail.section.id)]: true } : {}));
  useEffect(() => {
    if (trail?.section) setOpen((o) => ({ ...o, [String(trail.section!.id)]: true }));
  }, [trail?.section?.id]);

  return (
    <Box
      component="nav"
      data-testid="sidebar"
      aria-label={translate('app.title')}
      sx={{
        width: collapsed ? SIDEBAR_COLLAPSED_WIDTH : SIDEBAR_WIDTH,
        flexShrink: 0,
        height: '100vh',
        position: 'sticky',
        top: 0,
        bgcolor: sidebarColors.background,
        color: sidebarColors.text,
        transition: 'width .2s',
        overflowX: 'hidden',
        overflowY: 'auto',
        display: 'flex',
        flexDirection: 'column',
      }}
    >
      <Box
        component={Link}
        to="/home"
        sx={{
          ...TOPBAR_ROW,
          px: collapsed ? 0 : 1.5,
          justifyContent: collapsed ? 'center' : 'flex-start',
          color: sidebarColors.textActive,
          textDecoration: 'none',
          borderBottom: '1px solid rgba(255,255,255,0.06)',
        }}
      >
        <Hub sx={{ fontSize: 26, color: sidebarColors.active, flexShrink: 0 }} />
        {!collapsed && (
          <Typography sx={{ fontSize: 13, fontWeight: 600, lineHeight: 1.3, whiteSpace: 'normal' }}>{translate('app.title')}</Typography>
        )}
      </Box>
      {menus.length === 0 ? (
        <Typography data-testid="no-permission" sx={{ p: 2, textAlign: 'center', fontSize: 14 }}>
          {translate('shell.noPermission')}
        </Typography>
      ) : (
        <List component="div" disablePadding sx={{ py: 1 }}>
          {menus.map((node) =>
            node.children?.length ? (
              <Section
                key={node.id}
                node={node}
                collapsed={collapsed}
                open={!!open[String(node.id)]}
                onToggle={() => setOpen((o) => ({ ...o, [String(node.id)]: !o[String(node.id)] }))}
                activeId={trail?.page.id}
              />
            ) : (
              <Item key={node.id} node={node} collapsed={collapsed} active={trail?.page.id === node.id} depth={0} />
            ),
          )}
        </List>
      )}
    </Box>
  );
}

const itemSx = (active: boolean, depth: number, collapsed: boolean) => ({
  minHeight: 44,
  pl: collapsed ? 0 : 2.5 + depth * 2,
  pr: collapsed ? 0 : 2,
  justifyContent: collapsed ? 'center' : 'flex-start',
  color: active ? sidebarColors.textActive : sidebarColors.text,
  bgcolor: active ? sidebarColors.active : 'transparent',
  '&:hover': { bgcolor: active ? sidebarColors.active : sidebarColors.hover, color: sidebarColors.textActive },
  '& .MuiListItemIcon-root': { color: 'inherit', minWidth: collapsed ? 0 : 36 },
  '& .MuiListItemText-primary': { fontSize: 14 },
});

function Item({ node, collapsed, active, depth }: { node: MenuNode; collapsed: boolean; active: boolean; depth: number }) {
  const title = useMenuTitle()(node);
  const Icon = menuIcon(node.icon);
  const button = (
    <ListItemButton
      component={Link}
      to={pathOf(node)}
      data-testid={`menu-item-${testId(node)}`}
      aria-label={title}
      aria-current={active ? 'page' : undefined}
      sx={itemSx(active, depth, collapsed)}
    >
      <ListItemIcon>
        <Icon fontSize="small" />
      </ListItemIcon>
      {!collapsed && <ListItemText primary={title} slotProps={{ primary: { noWrap: true } }} />}
    </ListItemButton>
  );
  return collapsed ? (
    <Tooltip title={title} placement="right">
      {button}
    </Tooltip>
  ) : (
    button
  );
}

function Section({
  node,
  collapsed,
  open,
  onToggle,
  activeId,
}: {
  node: MenuNode;
  collapsed: boolean;
  open: boolean;
  onToggle: () => void;
  activeId?: MenuNode['id'];
}) {
  const menuTitle = useMenuTitle();
  const title = menuTitle(node);
  const Icon = menuIcon(node.icon);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const containsActive = (n: MenuNode): boolean => n.id === activeId || !!n.children?.some(containsActive);
  const active = containsActive(node);

  if (collapsed) {
    return (
      <>
        <Tooltip title={title} placement="right">
          <ListItemButton
            data-testid={`menu-section-${testId(node)}`}
            aria-label={title}
            aria-haspopup="menu"
            onClick={(e: MouseEvent<HTMLElement>) => setAnchor(e.currentTarget)}
            sx={{ ...itemSx(false, 0, true), color: active ? sidebarColors.textActive : sidebarColors.text }}
          >
            <ListItemIcon>
              <Icon fontSize="small" />
            </ListItemIcon>
          </ListItemButton>
        </Tooltip>
        <AnchoredMenu anchor={anchor} onClose={() => setAnchor(null)} place="right">
          {(node.children ?? []).map((child) => (
            <MenuItem
              key={child.id}
              component={Link}
              to={pathOf(child)}
              selected={child.id === activeId}
              data-testid={`menu-item-${testId(child)}`}
              onClick={() => setAnchor(null)}
            >
              {menuTitle(child)}
            </MenuItem>
          ))}
        </AnchoredMenu>
      </>
    );
  }

  return (
    <>
      <ListItemButton
        data-testid={`menu-section-${testId(node)}`}
        aria-label={title}
        aria-expanded={open}
        onClick={onToggle}
        sx={{ ...itemSx(false, 0, false), color: active ? sidebarColors.textActive : sidebarColors.text }}
      >
        <ListItemIcon>
          <Icon fontSize="small" />
        </ListItemIcon>
        <ListItemText primary={title} slotProps={{ primary: { noWrap: true } }} />
        {open ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
      </ListItemButton>
      <Collapse in={open} timeout="auto" unmountOnExit>
        <List component="div" disablePadding sx={{ bgcolor: sidebarColors.backgroundNested }}>
          {(node.children ?? []).map((child) =>
            child.children?.length ? (
              <NestedSection key={child.id} node={child} activeId={activeId} />
            ) : (
              <Item key={child.id} node={child} collapsed={false} active={child.id === activeId} depth={1} />
            ),
          )}
        </List>
      </Collapse>
    </>
  );
}

/** A third level is rare in these menus; it is shown flat under its own heading. */
function NestedSection({ node, activeId }: { node: MenuNode; activeId?: MenuNode['id'] }) {
  const title = useMenuTitle()(node);
  return (
    <>
      <Typography sx={{ pl: 6.5, pt: 1, pb: 0.5, fontSize: 12, opacity: 0.6 }}>{title}</Typography>
      {(node.children ?? []).map((child) => (
        <Item key={child.id} node={child} collapsed={false} active={child.id === activeId} depth={2} />
      ))}
    </>
  );
}
