/**
 * Hand-written pages a menu can name by component. A menu whose component is a key here opens the page
 * at `path`; `title` is an i18n key used for its tab and the document title.
 */
import { lazy, type ReactElement } from 'react';

export interface CustomPage {
  path: string;
  title: string;
  element: ReactElement;
}

// Pages load on first visit, with the charting code only they need.
const StatisticsPage = lazy(() => import('../statistics/StatisticsPage'));
const GatewayPage = lazy(() => import('../gateways/GatewayPage'));
const LocationPage = lazy(() => import('../location/LocationPage'));

export const customPages: Record<string, CustomPage> = {
  statistics: { path: '/statistics', title: 'menus.statistics', element: <StatisticsPage /> },
  gateway: { path: '/gateway', title: 'menus.gateway', element: <GatewayPage /> },
  location: { path: '/location', title: 'menus.location', element: <LocationPage /> },
};
