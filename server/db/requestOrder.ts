/**
 * The order in which PGlite's single connection serves queries. A request needs several queries in a
 * row (the caller's token, the rows, their count, their relations); served strictly in arrival order,
 * two hundred requests at once each wait behind the queries of all the others at every step, so every
 * one of them is slow and the slowest pass a client's time-out. Here a query of a request that has
 * already been served once goes before the first query of a request that has not: requests finish in
 * the order they started, the rest wait their turn at the door, and the waiting is fair.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Refusal } from '../http/envelope';

/** One HTTP request: served once already, and whether its client has gone (a client time-out). */
export interface RequestScope {
  started: boolean;
  abandoned: boolean;
}

const request = new AsyncLocalStorage<RequestScope>();

/** A request whose client left before its first query: never run, so a time-out does not leave work behind. */
const abandoned = () => new Refusal('请求已取消', 499);

/** PGLITE_REQUEST_ORDER=0 serves queries in arrival order alone (bench/load.ts compares the two). */
export const ordering = { enabled: process.env.PGLITE_REQUEST_ORDER !== '0' };

/** Runs `next` (the rest of an HTTP request) as one request for the queue below; answers its scope. */
export function withinRequest(next: () => void): RequestScope {
  const scope = { started: false, abandoned: false };
  if (ordering.enabled) request.run(scope, next);
  else next();
  return scope;
}

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
  scope?: RequestScope;
  arriving: boolean;
}

/** A lock on the one connection that serves requests already under way first. */
export class RequestOrderedLock {
  #held = false;
  readonly #continuing: Waiter[] = [];
  readonly #arriving: Waiter[] = [];

  /** Answers the release of the connection once it is this caller's turn. */
  async acquire(): Promise<() => void> {
    const scope = request.getStore();
    const continuing = scope?.started ?? false;
    if (scope && !continuing && scope.abandoned) throw abandoned();
    if (scope) scope.started = true;
    if (this.#held) await new Promise<void>((resolve, reject) => (continuing ? this.#continuing : this.#arriving).push({ resolve, reject, scope, arriving: !continuing }));
    this.#held = true;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // The next query runs in the event loop's next turn, not in this one's microtasks: PGlite answers
      // synchronously, so a queue handed on within microtasks would run to its end in one turn, and
      // Node accepts one new connection a turn — clients connecting under load waited seconds to be
      // let in at all (200 clients: a quarter of them passed a 10 s time-out before their first answer).
      setImmediate(() => this.#handOn());
    };
  }

  #handOn(): void {
    let next = this.#continuing.shift() ?? this.#arriving.shift();
    // Arrivals whose clients have gone are dropped from the queue instead of served.
    while (next?.arriving && next.scope?.abandoned) {
      next.reject(abandoned());
      next = this.#continuing.shift() ?? this.#arriving.shift();
    }
    if (next) next.resolve();
    else this.#held = false;
  }

  get waiting(): number {
    return this.#continuing.length + this.#arriving.length;
  }
}
