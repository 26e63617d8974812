/**
 * The picture rule (contract/picture.ts) as both sides apply it: what counts as a picture, and the
 * console's form check of a declared picture field, which words a refusal as the server does.
 */
import { describe, expect, it } from 'vitest';
import { PICTURE_FORMATS, isPicture, isPictureList } from '../../contract/picture';
import { validateField } from '../../app/components/validate';
import type { FieldConfig } from '../../app/resources/types';

describe('picture fields', () => {
  it('take an uploaded name or an http(s) address, nothing else', () => {
    for (const ok of ['0f3c9a1e2b4d5f6a7b8c9d0e1f2a3b4c.png', 'feedback-demo-1.png', 'a.jpeg', 'https://img.example.com/a.png', 'http://10.0.0.5:8080/snap?id=1']) expect(isPicture(ok), ok).toBe(true);
    for (const bad of ['../../etc/passwd', 'javascript:alert(1)', 'data:image/png;base64,AAAA', '/api/upload/a.png', 'a.gif', '.png', 'https://', 'https:///x.png', 'https://a.example.com/x y.png', 'https://a.example.com/"onerror=x', 'ftp://a.example.com/a.png', ' a.png', 'a.png\n']) {
      expect(isPicture(bad), JSON.stringify(bad)).toBe(false);
    }
    expect(isPictureList('a.png,https://img.example.com/b.jpg, c.jpg')).toBe(true);
    expect(isPictureList('a.png,,b.png')).toBe(false);
    expect(isPictureList('a.png,javascript:alert(1)')).toBe(false);
    // As validators register them: an emptied field (sent as empty text, stored as null) is no picture, not a bad one.
    expect([PICTURE_FORMATS.picture(''), PICTURE_FORMATS.pictures(' '), PICTURE_FORMATS.picture('../x')]).toEqual([true, true, false]);
  });

  it('are checked by the console before a save, with the field’s own message', () => {
    const field: FieldConfig = { source: 'fFace', type: 'string', label: 'resources.controlPerson.fields.fFace', format: 'picture', messages: { format: 'resources.controlPerson.messages.fFace.format' } };
    expect(validateField(field, '../../etc/passwd')).toEqual({ key: 'resources.controlPerson.messages.fFace.format' });
    expect(validateField(field, 'javascript:alert(1)')).toEqual({ key: 'resources.controlPerson.messages.fFace.format' });
    expect(validateField(field, 'https://img.example.com/a.png')).toBeNull();
    expect(validateField(field, '0f3c9a1e2b4d5f6a7b8c9d0e1f2a3b4c.jpg')).toBeNull();
    expect(validateField(field, '')).toBeNull();
    const list: FieldConfig = { ...field, source: 'fPhotos', format: 'pictures', messages: {} };
    expect(validateField(list, 'a.png,b.png')).toBeNull();
    expect(validateField(list, 'a.png,../../etc/passwd')).toEqual({ key: 'common.validation.pattern', args: { labelKey: field.label } });
  });
});
