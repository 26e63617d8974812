/**
 * The order vitest starts test files in. On a fresh clone it has no timings of its own and starts the
 * largest files first, which left the slowest (servers killed and restarted, a broker away for 30 s,
 * ten thousand malformed requests) to the end, each alone on a worker. These start first, the longest
 * first (as measured in CI), and the short files fill the workers around them.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SLOWEST_FIRST = [
  'tests/api/fuzz.test.ts',
  'tests/api/faults.test.ts',
  'tests/api/migrations.test.ts',
  'tests/api/commands.test.ts',
  'tests/api/replicas.test.ts',
  'tests/unit/generator.test.ts',
  'tests/api/device6.test.ts',
  'tests/unit/migrations.test.ts',
  'tests/api/message-log.test.ts',
  'tests/api/ingest-leader.test.ts',
  'tests/api/ingest-kill.test.ts',
];

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOWEST_FIRST.indexOf(relative(f.project.config.root, f.moduleId));
      return i < 0 ? SLOWEST_FIRST.length : i;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
