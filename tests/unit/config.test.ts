import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';

describe('the ingest’s log writers (INGEST_LOG_WRITERS)', () => {
  it('are two by default, any whole number from 1 to 6 when set, and a clear error otherwise', () => {
    expect(loadConfig({}).ingestLogWriters).toBe(2);
    expect(loadConfig({ INGEST_LOG_WRITERS: ' 4 ' }).ingestLogWriters).toBe(4);
    for (const bad of ['0', '7', '2.5', 'two']) expect(() => loadConfig({ INGEST_LOG_WRITERS: bad })).toThrow(`INGEST_LOG_WRITERS "${bad}" is not a whole number from 1 to 6`);
  });
});
