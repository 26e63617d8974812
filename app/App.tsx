/**
 * The console: react-admin with the legacy data and auth providers, the shell layout, and one resource
 * per generated entity that the user's menus open.
 */
import { Suspense } from 'react';
import { lazyChunk } from './shell/chunks';
import { Admin, CustomRoutes, Resource } from 'react-admin';
import type { I18nProvider } from 'react-admin';
import { BrowserRouter, Navigate, Route } from 'react-router-dom';
import { authProvider, getStoredMenus } from '../adapters/authProvider';
import { CONSOLE_BASE } from '../contract/consoleBase';
import { dataProvider } from '../adapters/dataProvider';
import type { ResourceEntry } from './resources/types';
import { ShellLayout } from './shell/Layout';
import { ConsoleFailed } from './shell/LoadFailed';
import { allowedPages, allowedResources, sortMenus } from './shell/menus';
import type { CustomPage } from './shell/pages';
import { theme } from './shell/theme';
import { HOME_PATH } from './shell/tabs';
import { LoginPage } from './pages/LoginPage';
import { HomePage } from './dashboard/HomePage';
import type { ErrorCode } from './pages/ErrorPage';
import { ResourcePage } from './shell/lazyPage';

const RedirectHome = () => <Navigate to={HOME_PATH} replace />;

/** The device list also answers /device/<number>, which searches that device. */
const DEVICE_RESOURCE = 'device';

// The error pages are seldom seen: they load when shown.
const LazyErrorPage = lazyChunk(() => import('./pages/ErrorPage'));
const errorPage = (code: ErrorCode, embedded = false) => () => (
  <Suspense fallback={null}>
    <LazyErrorPage code={code} embedded={embedded} />
  </Suspense>
);
const Error401 = errorPage(401);
const Error404 = errorPage(404);
const Error500 = errorPage(500);
const NotFoundInShell = errorPage(404, true);


function routesFor(entries: ResourceEntry[], pages: CustomPage[]) {
  const device = entries.find((e) => e.name === DEVICE_RESOURCE);
  return (
    <>
      <CustomRoutes>
        <Route path={HOME_PATH} element={<HomePage />} />
        {device && <Route path={`/${DEVICE_RESOURCE}/:deviceNumber`} element={<ResourcePage name={DEVICE_RESOURCE} />} />}
        {pages.map((page) => (
          <Route key={page.path} path={page.path} element={page.element} />
        ))}
      </CustomRoutes>
      {entries.map((entry) => (
        <Resource key={entry.name} name={entry.name} list={<ResourcePage name={entry.name} />} options={{ label: entry.label }} />
      ))}
    </>
  );
}

export function App({ i18nProvider }: { i18nProvider: I18nProvider }) {
  // History-mode addresses under the base path (/homeschool/device/ABC, not #/device/ABC): the server
  // answers every console path with the app.
  return (
    <BrowserRouter basename={CONSOLE_BASE}>
      <Admin
        title="app.title"
        dataProvider={dataProvider}
        authProvider={authProvider}
        i18nProvider={i18nProvider}
        layout={ShellLayout}
        error={ConsoleFailed}
        loginPage={LoginPage}
        dashboard={RedirectHome}
        catchAll={NotFoundInShell}
        theme={theme}
        requireAuth
        disableTelemetry
      >
        {/* Outside the function below: they must answer before, and without, a login. */}
        <CustomRoutes noLayout>
          <Route path="/401" element={<Error401 />} />
          <Route path="/404" element={<Error404 />} />
          <Route path="/500" element={<Error500 />} />
        </CustomRoutes>
        {/* Re-evaluated after login: the menus stored with the session decide the resources. */}
        {() => {
          const menus = sortMenus(getStoredMenus());
          return routesFor(allowedResources(menus), allowedPages(menus));
        }}
      </Admin>
    </BrowserRouter>
  );
}

export default App;
