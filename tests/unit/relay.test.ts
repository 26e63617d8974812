import { describe, expect, it, vi } from 'vitest';
import { pack } from '../../server/relay';

describe('relay payloads', () => {
  it('packs many items into few notifications, each under PostgreSQL’s 8000 bytes, in order', () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({ fId: i, fNumber: `DEV${String(i).padStart(6, '0')}`, tOnline: 1, switchStatus: i % 2, fLock: 0 }));
    const payloads = pack('device', items);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThan(8000);
    expect(payloads.length).toBeLessThan(20);
    const back = payloads.flatMap((p) => {
      const parsed = JSON.parse(p);
      expect(parsed.t).toBe('device');
      return parsed.i;
    });
    expect(back).toEqual(items);
  });

  it('counts bytes, not characters, for titles in Chinese', () => {
    const items = Array.from({ length: 100 }, (_, i) => ({ userId: i, msg_id: i, title: '新报警提醒'.repeat(40) }));
    const payloads = pack('message', items);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThan(8000);
    expect(payloads.flatMap((p) => JSON.parse(p).i)).toHaveLength(100);
  });

  it('sends nothing for no items, and leaves out an item too big to send with a warning', () => {
    expect(pack('device', [])).toEqual([]);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const payloads = pack('message', [{ userId: 1, msg_id: 1, title: 'x'.repeat(9000) }, { userId: 2, msg_id: 2, title: 'ok' }]);
    expect(payloads.flatMap((p) => JSON.parse(p).i)).toEqual([{ userId: 2, msg_id: 2, title: 'ok' }]);
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });
});
