import { describe, expect, it } from 'vitest';
import { openPGlite } from '../../server/db/pglite';
import { indexedPart, likeTrigrams } from '../../server/devices/messageRecords';

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
    const shares = new Map([...likeTrigrams('{"bid":"telemetry","mid":1,"ClientID":"BENCH00"}'), 'ch0', 'h00'].map((t) => [t, 1]));
    expect(indexedPart('BENCH0012345', shares)).toBe('0012345');
    // A value after a key: the part around the value that shares no trigram with the keys.
    const value = indexedPart('"mid":8919,', shares);
    expect('"mid":8919,').toContain(value);
    expect(value).toContain('8919');
    expect([...likeTrigrams(value)].filter((t) => shares.has(t))).toEqual([]);
    // Nothing rare in it: the whole text, as it was typed.
    expect(indexedPart('"bid":"telemetry"', shares)).toBe('"bid":"telemetry"');
    // Nothing common: the whole text.
    expect(indexedPart('voltage', shares)).toBe('voltage');
    // Without a sample (an empty log), the whole text.
    expect(indexedPart('BENCH0012345', new Map())).toBe('BENCH0012345');
  });

  it('asks for a value a tenth of the payloads hold rather than the keys every payload repeats', () => {
    const shares = new Map<string, number>([...[...likeTrigrams('{"bid":"telemetry","ClientID":"BENCH00"}')].map((t) => [t, 1] as const), ...[...likeTrigrams('"alarm"')].map((t) => [t, 0.1] as const)]);
    const part = indexedPart('"bid":"alarm"', shares);
    expect(part).toContain('alarm');
    expect([...likeTrigrams(part)].every((t) => (shares.get(t) ?? 0) < 0.5)).toBe(true);
    // A rarer value still wins over it: parts without a trigram in a tenth of the payloads come first.
    expect(indexedPart('"alarm":"x7Q2"', new Map([...shares, ...[...likeTrigrams('"x7Q2"')].map((t) => [t, 0.001] as const)]))).not.toContain('alarm');
  });
});
