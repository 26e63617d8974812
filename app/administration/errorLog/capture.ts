/**
 * The console's global error handler (spec 002 §8): script errors, unhandled promise rejections and
 * calls that failed on the server's side (HTTP 500, no answer) are sent to the error log. Refusals with a
 * reason (code 400, 401, 700) are the product working and are not errors. A page stuck in an error loop
 * sends the same error once and no more than a few a minute. The login page reports too: before anyone
 * signs in, a report is nobody's.
 */
import { useEffect } from 'react';
import { onApiError } from '../../../adapters/http';
import { dataProvider } from '../../../adapters/dataProvider';

/** Reports a minute from one page (the server limits each address too). */
const PER_MINUTE = 10;
const LIMITS = { message: 2000, url: 500, stack: 4000 };

type Report = { fType: 'script' | 'promise' | 'api' | 'network'; fCode: number; fMessage: string; fUrl: string; fStack?: string };

const sent = new Set<string>();
let windowStart = 0;
let inWindow = 0;

const cut = (text: string, max: number) => (text.length > max ? text.slice(0, max - 1) + '…' : text);

export function reportError(report: Report): void {
  const key = `${report.fType}|${report.fCode}|${report.fMessage}|${report.fUrl}`;
  if (sent.has(key)) return;
  const now = Date.now();
  if (now - windowStart > 60_000) {
    windowStart = now;
    inWindow = 0;
  }
  if (++inWindow > PER_MINUTE) return;
  sent.add(key);
  const body = {
    ...report,
    fMessage: cut(report.fMessage || '(empty)', LIMITS.message),
    fUrl: cut(report.fUrl, LIMITS.url),
    ...(report.fStack ? { fStack: cut(report.fStack, LIMITS.stack) } : {}),
  };
  // Quiet, and past react-admin's error handling (errorLog.add): a failed report must not raise another
  // report, a message or a logout; it is sent from window handlers, outside any component.
  void dataProvider.call('errorLog.add', body, { quiet: true }).catch(() => undefined);
}

function describe(reason: unknown): { message: string; stack?: string } {
  if (reason instanceof Error) return { message: `${reason.name}: ${reason.message}`, stack: reason.stack };
  try {
    return { message: typeof reason === 'string' ? reason : JSON.stringify(reason) };
  } catch {
    return { message: String(reason) };
  }
}

/** Installs the handlers while the console is shown: the login page and the signed-in frame. */
export function useErrorCapture(): void {
  useEffect(() => {
    const onError = (event: ErrorEvent) => {
      const { message, stack } = describe(event.error ?? event.message);
      reportError({ fType: 'script', fCode: 0, fMessage: message, fUrl: event.filename ? `${event.filename}:${event.lineno}:${event.colno}` : location.href, fStack: stack });
    };
    const onRejection = (event: PromiseRejectionEvent) => {
      const { message, stack } = describe(event.reason);
      reportError({ fType: 'promise', fCode: 0, fMessage: message, fUrl: location.href, fStack: stack });
    };
    const offApi = onApiError((error) => {
      if (error.status === 0) reportError({ fType: 'network', fCode: 0, fMessage: error.message, fUrl: location.href });
      else if (error.status >= 500 && error.status < 600) reportError({ fType: 'api', fCode: error.body?.code ?? error.status, fMessage: error.message, fUrl: location.href });
    });
    window.addEventListener('error', onError);
    window.addEventListener('unhandledrejection', onRejection);
    return () => {
      window.removeEventListener('error', onError);
      window.removeEventListener('unhandledrejection', onRejection);
      offApi();
    };
  }, []);
}
