import { describe, expect, it } from 'vitest';
import { openPGlite } from '../../server/db/pglite';
import { indexedPart, likeTrigrams } from '../../server/domain/messageRecords';

describe('the part of a content search the payload index is asked for', () => {
  it("names the trigrams pg_trgm takes from a word bounded by other characters", async () => {
    const client = await openPGlite();
    await client.exec('create extension if not exists pg_trgm');
    for (const word of ['mid', '8919', 'ClientID', 'BENCH0012345', 'a1', 'Voltage 230 x']) {
      const { rows } = await client.query<{ t: string[] }>('select show_trgm($1) as t', [word]);
      // show_trgm pads every word on both sides, as a LIKE pattern does where a non-word character bounds it.
      expect([...likeTrigrams(`,${word},`)].sort()).toEqual([...rows[0].t].sort());
    }
    await client.close();
  });

  it('leaves out what most payloads repeat and keeps the rest of the text', () => {
    // What a fleet of devices named BENCH… repeats in every payload: its keys and the serial's prefix.
    const common = new Set([...likeTrigrams('{"bid":"telemetry","mid":1,"ClientID":"BENCH00"}'), 'ch0', 'h00']);
    expect(indexedPart('BENCH0012345', common)).toBe('0012345');
    // A value after a key: the part around the value that shares no trigram with the keys.
    const value = indexedPart('"mid":8919,', common);
    expect('"mid":8919,').toContain(value);
    expect(value).toContain('8919');
    expect([...likeTrigrams(value)].filter((t) => common.has(t))).toEqual([]);
    // Nothing rare in it: the whole text, as it was typed.
    expect(indexedPart('"bid":"telemetry"', common)).toBe('"bid":"telemetry"');
    // Nothing common: the whole text.
    expect(indexedPart('voltage', common)).toBe('voltage');
    // Without a sample (an empty log), the whole text.
    expect(indexedPart('BENCH0012345', new Set())).toBe('BENCH0012345');
  });
});
