/**
 * The console's frame around every page after login: sidebar, top bar, tab bar, the page, and a
 * back-to-top button. It also keeps the tab list, the document title and the scroll position in step
 * with navigation, and announces the global API errors.
 */
import { Component, Suspense, useEffect, useRef, useState } from 'react';
import type { ErrorInfo, ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { useStore, useTranslate } from 'react-admin';
import { Box, Fab, LinearProgress, Typography, Zoom } from '@mui/material';
import KeyboardArrowUp from '@mui/icons-material/KeyboardArrowUp';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';
import { TabBar } from './TabBar';
import { isUsersPage, useMenus, usePageTitle } from './menus';
import { openTab } from './tabs';
import { withoutPersonalQuery } from '../../contract/personal';
import { useApiErrors } from './useApiErrors';
import { useTileUrl } from '../components/map';
import { useErrorCapture } from '../administration/errorLog/capture';
import { DeviceAlarmNotifier } from '../devices/live/DeviceAlarms';
import { isChunkFailure } from './chunks';
import { LoadFailed } from './LoadFailed';
import { ProfileOverlay } from '../security/intel/ProfileOverlay';

/** The back-to-top button shows once the page has scrolled this far. */
const BACK_TO_TOP_AFTER = 100;

export function ShellLayout({ children }: { children?: ReactNode }) {
  const [collapsed, setCollapsed] = useStore('sidebar.collapsed', false);
  const { pathname, search } = useLocation();
  const translate = useTranslate();
  const pageTitle = usePageTitle();
  const main = useRef<HTMLElement>(null);
  const [scrolled, setScrolled] = useState(false);
  const menus = useMenus();
  useApiErrors();
  useErrorCapture();
  // The maps' tile address, known before a map or a map dialog opens.
  useTileUrl();

  // Only real pages become tabs; an unknown address shows the 404 page without leaving a tab behind.
  const known = isUsersPage(menus, pathname);
  useEffect(() => {
    // A profile or graph link carries a phone or ID number; the remembered tab does not.
    if (known) openTab(pathname, pathname + withoutPersonalQuery(search));
  }, [known, pathname, search]);

  useEffect(() => {
    main.current?.scrollTo({ top: 0 });
  }, [pathname]);

  const title = pageTitle(pathname);
  const appTitle = translate('app.title');
  useEffect(() => {
    document.title = title ? `${title} - ${appTitle}` : appTitle;
  }, [title, appTitle]);

  return (
    <Box sx={{ display: 'flex', height: '100vh', overflow: 'hidden', bgcolor: 'background.default' }}>
      <Sidebar collapsed={collapsed} />
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <TopBar collapsed={collapsed} onToggle={() => setCollapsed(!collapsed)} />
        <TabBar />
        <DeviceAlarmNotifier />
        <Box
          component="main"
          ref={main}
          id="main-content"
          onScroll={(e) => setScrolled(e.currentTarget.scrollTop > BACK_TO_TOP_AFTER)}
          sx={{ flex: 1, overflow: 'auto', p: 2, position: 'relative' }}
        >
          <PageBoundary key={pathname}>
            {/* A name link opens the profile over the page, which stays as it was underneath. */}
            <ProfileOverlay>
              <Suspense fallback={<LinearProgress sx={{ mt: -2, mx: -2 }} />}>{children}</Suspense>
            </ProfileOverlay>
          </PageBoundary>
        </Box>
      </Box>
      <Zoom in={scrolled}>
        <Fab
          color="primary"
          size="small"
          data-testid="back-to-top"
          aria-label={translate('shell.backToTop')}
          onClick={() => main.current?.scrollTo({ top: 0, behavior: 'smooth' })}
          sx={{ position: 'fixed', right: 24, bottom: 24, zIndex: (theme) => theme.zIndex.speedDial }}
        >
          <KeyboardArrowUp />
        </Fab>
      </Zoom>
    </Box>
  );
}

/** Why a page is not shown: it threw, or its code could not be fetched. */
type Failure = null | 'page' | 'chunk';

/**
 * A page that throws shows the 500 text in place; the shell and the other tabs keep working. A page
 * whose code could not be fetched says so and offers a reload.
 */
class PageBoundary extends Component<{ children: ReactNode }, { failed: Failure }> {
  state: { failed: Failure } = { failed: null };
  static getDerivedStateFromError(error: unknown): { failed: Failure } {
    return { failed: isChunkFailure(error) ? 'chunk' : 'page' };
  }
  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }
  render() {
    if (this.state.failed === 'chunk') return <LoadFailed />;
    return this.state.failed ? <PageFailed /> : this.props.children;
  }
}

function PageFailed() {
  const translate = useTranslate();
  return (
    <Box sx={{ py: 8, textAlign: 'center' }} role="alert">
      <Typography variant="h5" gutterBottom>
        500
      </Typography>
      <Typography color="text.secondary">{translate('pages.e500.message')}</Typography>
    </Box>
  );
}
