/**
 * The legacy request wrapper's global messages: HTTP 700 says the login expired and goes to the login
 * page a second later, 401 says the operation is not permitted, 500 that the server failed.
 */
import { useEffect } from 'react';
import { useLogout, useNotify } from 'react-admin';
import { onApiError } from '../../adapters/http';
import { EXPIRED_REDIRECT_MS } from '../../adapters/authProvider';

// Several calls fail together when a token expires; one message and one logout are enough.
let leaving = false;

export function useApiErrors(): void {
  const notify = useNotify();
  const logout = useLogout();
  useEffect(
    () =>
      onApiError((error) => {
        if (error.status === 700) {
          if (leaving) return;
          leaving = true;
          notify('errors.expired', { type: 'warning' });
          setTimeout(() => {
            Promise.resolve(logout({}, '/login', false)).finally(() => {
              leaving = false;
            });
          }, EXPIRED_REDIRECT_MS);
        } else if (error.status === 401) {
          notify('errors.noPermission', { type: 'info' });
        } else if (error.status === 500) {
          notify('errors.server', { type: 'error' });
        }
      }),
    [notify, logout],
  );
}
