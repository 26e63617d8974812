/**
 * A job a server process runs once at start and then every interval (roll-ups, partition upkeep). Runs
 * never overlap within a process; a failed run is reported and the next interval tries again. Jobs
 * that replicas must not run together take their own advisory lock.
 */
export interface PeriodicJob<T> {
  /** Runs the job now (after the run in progress, if any). */
  run(): Promise<T | null>;
  /** The run made at start. */
  first: Promise<T | null>;
  stop(): Promise<void>;
}

export function periodic<T>(label: string, work: () => Promise<T>, intervalMs: number): PeriodicJob<T> {
  let running: Promise<T | null> = Promise.resolve(null);
  let stopped = false;
  const run = () => {
    running = running
      .catch(() => null)
      .then(() => (stopped ? null : work()))
      .catch((error: unknown) => {
        console.warn(`${label}: ${(error as Error).message}`);
        return null;
      });
    return running;
  };
  const first = run();
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  return {
    run,
    first,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running.catch(() => undefined);
    },
  };
}
