/** The device import's packed shared strings and device numbers (server/devices/deviceTransfer.ts): every string back as it went in. */
import { describe, expect, it } from 'vitest';
import { StringSet, StringTable } from '../../server/devices/deviceTransfer';

describe('the packed string table', () => {
  it('answers each string by its index, across chunks and growth, and nothing for an unknown index', () => {
    const table = new StringTable();
    const texts = Array.from({ length: 200_000 }, (_, i) => (i % 3 === 0 ? `设备${i}` : i % 3 === 1 ? `IM${String(i).padStart(8, '0')}` : ''));
    // Long strings (90 KB each, as long as a cell may be) among them: chunks left part-empty, several begun.
    for (let i = 0; i < 120; i++) texts.splice(i * 1000 + 7, 0, `${i}${'长'.repeat(30_000)}`);
    expect(texts.reduce((n, t) => n + Buffer.byteLength(t), 0)).toBeGreaterThan(2 * StringTable.CHUNK_BYTES);
    for (const t of texts) table.push(t);
    for (const i of [0, 1, 2, 7, 65_535, 65_536, 131_071, 199_999, 200_119]) expect(table.get(i)).toBe(texts[i]);
    expect(texts.every((t, i) => table.get(i) === t)).toBe(true);
    expect(table.get(texts.length)).toBe('');
    expect(table.get(-1)).toBe('');
  });

  it('keeps an empty string that falls just after a full chunk', () => {
    const table = new StringTable();
    const piece = 'a'.repeat(StringTable.CHUNK_BYTES / 128);
    for (let i = 0; i < 128; i++) table.push(piece);
    table.push('');
    table.push('下一个');
    expect(table.get(127)).toBe(piece);
    expect(table.get(128)).toBe('');
    expect(table.get(129)).toBe('下一个');
  });
});

describe('the packed string set', () => {
  it('adds each string once, however many, and tells a repeat', () => {
    const set = new StringSet();
    const numbers = Array.from({ length: 300_000 }, (_, i) => (i % 2 ? `IM${String(i).padStart(8, '0')}` : `设备-${i}`));
    expect(numbers.every((n) => set.add(n))).toBe(true);
    expect(set.size).toBe(numbers.length);
    expect(numbers.filter((_, i) => i % 997 === 0).some((n) => set.add(n))).toBe(false);
    expect(set.add('')).toBe(true);
    expect(set.add('')).toBe(false);
    expect(set.add('IM00000002')).toBe(true);
    expect(set.size).toBe(numbers.length + 2);
  });
});
