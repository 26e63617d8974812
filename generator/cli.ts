#!/usr/bin/env node
/** The generator CLI: validate | generate [--check] | new <entity>. Run from the repository root. */
import { Command } from 'commander';
import { loadModel, InvalidInputs, formatProblem } from './model';
import { stale, write } from './generate';
import { scaffold } from './scaffold';
import { menuWarnings } from './menuTree';
import { nextMigration, readCommittedSnapshot } from './history';
import { checkedReasons } from './reasons';
import { loadCalls } from './calls';

const program = new Command('gen').description('Turns schemas/ and resources/ into typed, committed code.').option('--root <dir>', 'repository root', process.cwd());

function fail(error: unknown): never {
  if (error instanceof InvalidInputs) {
    console.error(`${error.problems.length} problem(s) in the inputs:\n`);
    for (const p of error.problems) console.error(formatProblem(p) + '\n');
  } else console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

program
  .command('validate')
  .description('check every schema and resource file against the meta-schemas and each other, and the pending schema change')
  .action(() => {
    try {
      const root = program.opts().root;
      const model = loadModel(root);
      const reasons = checkedReasons(root, model);
      // Calls by name (resources/calls/ and the entities' endpoints): names, paths and codes.
      const calls = loadCalls(root, model);
      // A schema change that would lose data without a declared decision is an input problem too.
      const pending = nextMigration(root, readCommittedSnapshot(root), model);
      // Warnings do not fail the run: the inputs work, but a user would have trouble with the menu.
      for (const w of menuWarnings(model)) console.warn(`warning: ${formatProblem(w)}\n`);
      console.log(`ok: ${model.entities.length} entities (${model.entities.map((e) => e.name).join(', ')}), ${Object.keys(reasons).length} reasons, ${calls.length} calls`);
      if (pending) console.log(`\`npm run gen\` will write ${pending.path}`);
    } catch (e) {
      fail(e);
    }
  });

program
  .command('generate')
  .description('write the generated folders; with --check, only report stale files')
  .option('--check', 'exit 1 naming the stale files when anything generated differs from what the inputs produce')
  .action(async (opts: { check?: boolean }) => {
    const root = program.opts().root;
    try {
      if (opts.check) {
        const files = await stale(root);
        if (files.length) {
          console.error(`generated code or the migration history is not current (run \`npm run gen\`; see docs/generator.md, "Changing a schema"):\n${files.map((f) => '  ' + f).join('\n')}`);
          process.exit(1);
        }
        console.log('generated code is up to date');
        return;
      }
      const changed = await write(root);
      console.log(changed.length ? `wrote:\n${changed.map((f) => '  ' + f).join('\n')}` : 'nothing to change');
    } catch (e) {
      fail(e);
    }
  });

program
  .command('new <entity>')
  .description('scaffold schemas/<entity>.schema.json and resources/<entity>.resource.json')
  .option('--parent <menu>', 'the menu section (resources/menus.json) to place the page under, after its last entry')
  .action((entity: string, opts: { parent?: string }) => {
    try {
      for (const f of scaffold(program.opts().root, entity, { parent: opts.parent })) console.log(`created ${f}`);
      console.log('edit both files (the menu title in three languages first), then run `npm run gen`');
    } catch (e) {
      fail(e);
    }
  });

await program.parseAsync();
