/**
 * The last figures of every performance target in one table (Markdown, as docs/performance.md keeps
 * it): what each bench recorded (bench/results.ts), by target, with the database it ran on, its date
 * and the machine's load. The last step of `npm run bench`; `tsx bench/summary.ts` prints it again.
 */
import { RESULTS_FILE, TARGETS, readResults } from './results';

const entries = readResults();
if (!entries.length) {
  console.log(`no figures recorded yet (${RESULTS_FILE}): run \`npm run bench\``);
  process.exit(0);
}
const rows = entries.flatMap((e) => e.figures.map((f) => ({ ...f, on: e.on, at: e.at, machine: e.machine, bench: e.bench })));
rows.sort((a, b) => TARGETS.indexOf(a.target) - TARGETS.indexOf(b.target) || a.on.localeCompare(b.on));
console.log('\n| target | measured on | what | figure | aim | met | bench, when, machine |');
console.log('| --- | --- | --- | ---: | --- | --- | --- |');
for (const r of rows) console.log(`| ${r.target} | ${r.on} | ${r.what} | ${r.measured} | ${r.aim} | ${r.met === undefined ? '—' : r.met ? 'yes' : '**no**'} | ${r.bench}, ${r.at}, ${r.machine} |`);
const aimed = rows.filter((r) => r.met !== undefined);
const missed = aimed.filter((r) => !r.met);
console.log(`\n${aimed.length} figures with an aim, ${aimed.length - missed.length} met, ${missed.length} not met${missed.length ? `: ${missed.map((m) => `${m.target} (${m.on}) ${m.what}`).join('; ')}` : ''}`);
