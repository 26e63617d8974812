/**
 * Hand-written pages a menu can name by component. A menu whose component is a key here opens the page
 * at `path`; `title` is an i18n key used for its tab and the document title. A page is routed only for
 * a user whose menus name it (spec 002 §2: routes are built from the menus), unless it is `everyone`'s.
 */
import type { ReactElement } from 'react';
import { lazyPage, ResourcePage } from './lazyPage';

export interface CustomPage {
  path: string;
  title: string;
  element: ReactElement;
  /** Reached without a menu (the top bar, a link of another page), so routed for every user. */
  everyone?: boolean;
}

// Pages load on first visit, with the charting code only they need and the texts outside the first screen.
const StatisticsPage = lazyPage(() => import('../devices/statistics/StatisticsPage'));
const GatewayPage = lazyPage(() => import('../devices/gateways/GatewayPage'));
const LocationPage = lazyPage(() => import('../devices/location/LocationPage'));
const OplogPage = lazyPage(() => import('../administration/oplog/OplogPage'));
// Users and roles are declared resources; their menus keep the legacy addresses /sys-user and /sys-role.
const MenuPage = lazyPage(() => import('../administration/system/MenuPage'));
const HologramPage = lazyPage(() => import('../security/intel/HologramPage'));
const RelationPage = lazyPage(() => import('../security/intel/RelationPage'));
const ApiDocsPage = lazyPage(() => import('../administration/monitor/ApiDocsPage'));
const SystemMonitorPage = lazyPage(() => import('../administration/monitor/SystemMonitorPage'));
const DruidPage = lazyPage(() => import('../administration/monitor/DruidPage'));
const MessagePage = lazyPage(() => import('../platform/messages/MessagePage'));

export const customPages: Record<string, CustomPage> = {
  statistics: { path: '/statistics', title: 'menus.statistics', element: <StatisticsPage /> },
  gateway: { path: '/gateway', title: 'menus.gateway', element: <GatewayPage /> },
  location: { path: '/location', title: 'menus.location', element: <LocationPage /> },
  oplog: { path: '/oplog', title: 'menus.oplog', element: <OplogPage /> },
  'sys-user': { path: '/sys-user', title: 'menus.sys-user', element: <ResourcePage name="user" /> },
  'sys-role': { path: '/sys-role', title: 'menus.sys-role', element: <ResourcePage name="role" /> },
  'sys-menu': { path: '/sys-menu', title: 'menus.sys-menu', element: <MenuPage /> },
  // The profile opens from the alarm and watch lists, and its call-relation link leads to the graph.
  hologram: { path: '/hologram', title: 'menus.hologram', element: <HologramPage />, everyone: true },
  relation: { path: '/relation', title: 'menus.relation', element: <RelationPage />, everyone: true },
  'api-docs': { path: '/swagger', title: 'menus.api-docs', element: <ApiDocsPage /> },
  'sys-monitor': { path: '/monitor', title: 'menus.sys-monitor', element: <SystemMonitorPage /> },
  druid: { path: '/druid', title: 'menus.druid', element: <DruidPage /> },
  // Every user's, reached from the top bar rather than a menu.
  message: { path: '/message', title: 'messageCentre.title', element: <MessagePage />, everyone: true },
};
