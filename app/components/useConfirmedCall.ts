import { useNotify } from 'react-admin';
import type { CallBody, CallName } from '../../adapters/dataProvider';
import { useConfirm } from './ConfirmDialog';
import { useRequest, type Outcome } from './calls';

export interface ConfirmedCallWords {
  /** The success's words, the server's notice at hand. */
  done: (outcome: Outcome<unknown>) => string;
  /** The refusal's words, its message and error at hand. */
  failed: (outcome: Outcome<unknown>) => string;
  /** What follows a success (a reload). */
  after?: () => void;
}

/**
 * An action whose outcome is worded as a success or an error; it answers whether it succeeded. A
 * failure the shell has announced (an expired login, a missing permission, a server fault) is not
 * worded again.
 */
export function useWordedCall() {
  const request = useRequest();
  const notify = useNotify();
  return async <N extends CallName>(name: N, body: CallBody<N>, { done, failed, after }: ConfirmedCallWords) => {
    const outcome = await request(name, body);
    if (outcome.ok) {
      notify(done(outcome), { type: 'success' });
      after?.();
    } else if (!outcome.announced) notify(failed(outcome), { type: 'error' });
    return outcome.ok;
  };
}

/**
 * A worded call the user confirms first (a delete, a status change): asked with `question`, then made.
 * `call`: the same without the question. Render `dialog` where the question shows.
 */
export function useConfirmedCall() {
  const call = useWordedCall();
  const { ask, dialog } = useConfirm();
  const confirmCall = <N extends CallName>(question: string, name: N, body: CallBody<N>, words: ConfirmedCallWords) => ask(question, () => call(name, body, words));
  return { confirmCall, call, dialog };
}
