import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { clearSession, refreshSession, statusOf } from '../adapters/authProvider';
import { getToken } from '../adapters/http';
import { createI18nProvider } from '../adapters/i18nProvider';
import { App } from './App';
import { preloadPage } from './shell/lazyPage';
import { CONSOLE_BASE } from '../contract/consoleBase';

/** A stored session is re-read once per visit, so a changed role shows without logging out; a slow server does not hold the page. */
const REFRESH_TIMEOUT_MS = 2500;

async function refreshStoredSession(): Promise<void> {
  if (!getToken()) return;
  const timeout = new Promise<void>((resolve) => setTimeout(resolve, REFRESH_TIMEOUT_MS));
  const refresh = refreshSession().catch((error) => {
    // An expired token goes straight to the login page instead of failing on every call.
    if (statusOf(error) === 700) clearSession();
  });
  await Promise.race([refresh, timeout]);
}

async function start() {
  if (getToken()) preloadPage(window.location.pathname.slice(CONSOLE_BASE.length));
  const [i18nProvider] = await Promise.all([createI18nProvider(), refreshStoredSession()]);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App i18nProvider={i18nProvider} />
    </StrictMode>,
  );
}

void start();
