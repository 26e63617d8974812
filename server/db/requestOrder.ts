/**
 * The order in which PGlite's single connection serves queries. A request needs several queries in a
 * row (the caller's token, the rows, their count, their relations); served strictly in arrival order,
 * two hundred requests at once each wait behind the queries of all the others at every step, so every
 * one of them is slow and the slowest pass a client's time-out. Here a query of a request that has
 * already been served once goes before the first query of a request that has not: requests finish in
 * the order they started, the rest wait their turn at the door, and the waiting is fair.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const request = new AsyncLocalStorage<{ started: boolean }>();

/** PGLITE_REQUEST_ORDER=0 serves queries in arrival order alone (bench/load.ts compares the two). */
export const ordering = { enabled: process.env.PGLITE_REQUEST_ORDER !== '0' };

/** Runs `next` (the rest of an HTTP request) as one request for the queue below. */
export function withinRequest(next: () => void): void {
  if (ordering.enabled) request.run({ started: false }, next);
  else next();
}

/** A lock on the one connection that serves requests already under way first. */
export class RequestOrderedLock {
  #held = false;
  readonly #continuing: (() => void)[] = [];
  readonly #arriving: (() => void)[] = [];

  /** Answers the release of the connection once it is this caller's turn. */
  async acquire(): Promise<() => void> {
    const scope = request.getStore();
    const continuing = scope?.started ?? false;
    if (scope) scope.started = true;
    if (this.#held) await new Promise<void>((resolve) => (continuing ? this.#continuing : this.#arriving).push(resolve));
    this.#held = true;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#continuing.shift() ?? this.#arriving.shift();
      if (next) next();
      else this.#held = false;
    };
  }

  get waiting(): number {
    return this.#continuing.length + this.#arriving.length;
  }
}
