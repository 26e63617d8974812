/**
 * Home: the dashboard. Its charts and map are loaded on first visit, so the login page and the shell
 * stay small (the layout's Suspense shows progress meanwhile).
 */
import { lazyChunk } from '../shell/chunks';

const Dashboard = lazyChunk(() => import('./Dashboard'));

export function HomePage() {
  return <Dashboard />;
}

export default HomePage;
