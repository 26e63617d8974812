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

export const customPages: Record<string, CustomPage> = {
  statistics: { path: '/statistics', title: 'menus.statistics', element: <StatisticsPage /> },
};
