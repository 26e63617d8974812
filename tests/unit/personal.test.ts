import { describe, expect, it } from 'vitest';
import { maskIdcard, maskList, maskNumbersIn, maskPhone } from '../../contract/personal';

// One rule for every list, drawer, the profile and the operation log (spec 001 §2.12).
describe('masking personal data', () => {
  it('keeps the first 3 and last 4 digits of an 11-digit phone', () => {
    expect(maskPhone('13912345678')).toBe('139****5678');
    expect(maskPhone(13912345678)).toBe('139****5678');
    expect(maskPhone(null)).toBe('');
  });

  it('masks the middle of an 18-digit ID number: the region prefix and the last 4 stay', () => {
    expect(maskIdcard('440106199001012691')).toBe('440106********2691');
    expect(maskIdcard('44010619900101500X')).toBe('440106********500X');
    expect(maskIdcard('440106900101123')).toBe('440106******123');
    expect(maskIdcard(undefined)).toBe('');
  });

  it('gives a masked value back unchanged, so a value the server masked reads the same on every screen', () => {
    expect(maskIdcard(maskIdcard('440106199001015008'))).toBe('440106********5008');
    expect(maskPhone(maskPhone('13800000003'))).toBe('138****0003');
  });

  it('masks the phones and ID numbers inside a text (a phone-book name that is a number), nothing else', () => {
    expect(maskNumbersIn('13912345678')).toBe('139****5678');
    expect(maskNumbersIn('张三 13912345678 / 44010619900101500x')).toBe('张三 139****5678 / 440106********500x');
    expect(maskNumbersIn('房东')).toBe('房东');
    expect(maskNumbersIn('020-12345678')).toBe('020-12345678');
    expect(maskNumbersIn('+8613912345678, 8613912345678, 013912345678')).toBe('+86139****5678, 86139****5678, 0139****5678');
    expect(maskNumbersIn('139123456789')).toBe('139123456789');
    expect(maskNumbersIn(null)).toBe('');
  });

  it('masks a comma list item by item', () => {
    expect(maskList('phone', '13912345678,13800000000')).toBe('139****5678, 138****0000');
    expect(maskList('idcard', '440106199001012691')).toBe('440106********2691');
  });
});
