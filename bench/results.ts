/**
 * The figures each benchmark measured for the performance targets (docs/performance.md), kept between
 * the benchmarks of one `npm run bench` so that bench/summary.ts can print them as one table at its end.
 * Each bench replaces its own entry for the database it ran on: a later run of one bench alone updates
 * its rows and leaves the others' as they were, each with its own date and machine.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const RESULTS_FILE = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'bench', 'results.json');

/** The targets, in the order docs/performance.md gives them. */
export const TARGETS = ['ingest', 'message log', 'dashboard', 'lists', 'first screen', 'device import and export'] as const;
export type Target = (typeof TARGETS)[number];

export interface Figure {
  target: Target;
  /** What was measured, e.g. "keyword search p95, administrator". */
  what: string;
  /** The figure as printed, with its unit. */
  measured: string;
  /** The aim, as printed, e.g. "≤ 50 ms". */
  aim: string;
  /** Absent for a figure given for comparison (a baseline), which has no aim of its own. */
  met?: boolean;
}

export interface Entry {
  bench: string;
  /** PostgreSQL, PGlite, or the browser. */
  on: string;
  at: string;
  machine: string;
  figures: Figure[];
}

export function readResults(): Entry[] {
  try {
    return JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as Entry[];
  } catch {
    return [];
  }
}

/** Keeps a bench's figures for one database, in place of those of its previous run there. */
export function recordResults(bench: string, on: string, figures: Figure[]) {
  const machine = `${cpus().length} cores, load average ${loadavg()[0].toFixed(1)}`;
  const entries = readResults().filter((e) => !(e.bench === bench && e.on === on));
  entries.push({ bench, on, at: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC', machine, figures });
  mkdirSync(dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, JSON.stringify(entries, null, 1));
}

/** A time in milliseconds as the tables print it. */
export const msText = (ms: number) => `${ms.toFixed(1)} ms`;

/** The database a run used, as the table names it. */
export const databaseName = (kind: 'pglite' | 'postgres') => (kind === 'postgres' ? 'PostgreSQL' : 'PGlite');
