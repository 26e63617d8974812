/**
 * Rich text (properties with `x-format: html`) is cleaned by sanitize-html with an allow-list of exactly
 * what the console's editor makes (app/components/richtext/): headings, bold, italic, underline, strike,
 * code, lists, quotes, links, pictures, videos, and spans carrying a colour, a background colour, a font
 * size or a font name. Everything else — scripts, event attributes, frames, forms, styles beyond those
 * four, javascript: and data: addresses — is dropped. The CRUD engine applies it to every such field
 * when a row is written and again when it is read, so a row put into the table by other means is served
 * clean as well.
 */
import sanitizeHtml from 'sanitize-html';
import type { EntityModel } from './types';

const COLOUR = [/^#[0-9a-f]{3,8}$/i, /^rgba?\(\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*,\s*\d{1,3}%?\s*(,\s*(0|1|0?\.\d+))?\s*\)$/i, /^[a-z]{3,20}$/i];
const FONT_SIZE = [/^\d{1,3}(\.\d+)?(px|pt|em|rem|%)$/];
// Font names as the editor's menu offers them: letters (also CJK), digits, spaces, quotes, commas, hyphens.
const FONT_NAME = [/^[\w\s,'"\-\u3400-\u9fff]{1,120}$/];

/** Pictures and videos come from the console's own uploads or from an https/http address. */
const MEDIA_SRC = /^(\/api\/upload\/[A-Za-z0-9][A-Za-z0-9_-]{0,80}\.(jpg|jpeg|png)|https?:\/\/[^\s"'<>]+)$/i;

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'h1', 'h2', 'h3', 'h4', 'strong', 'b', 'em', 'i', 'u', 's', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'hr', 'a', 'span', 'mark', 'img', 'video'],
  allowedAttributes: {
    a: ['href', 'target', 'rel'],
    span: ['style'],
    mark: ['style', 'data-color'],
    p: ['style'],
    h1: ['style'],
    h2: ['style'],
    h3: ['style'],
    h4: ['style'],
    code: ['class'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    video: ['src', 'controls', 'width', 'height'],
  },
  allowedClasses: { code: [/^language-[a-z0-9-]+$/] },
  allowedStyles: {
    '*': { color: COLOUR, 'background-color': COLOUR, 'font-size': FONT_SIZE, 'font-family': FONT_NAME, 'text-align': [/^(left|right|center|justify)$/] },
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'], video: ['http', 'https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Media whose address is not of the allowed kinds is dropped whole, not kept without a source.
  exclusiveFilter: (frame) => (frame.tag === 'img' || frame.tag === 'video') && !MEDIA_SRC.test(frame.attribs.src ?? ''),
  transformTags: {
    // Links open in a new tab without handing the console's window to the linked page.
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, target: '_blank', rel: 'noopener noreferrer nofollow' } }),
    video: (tagName, attribs) => ({ tagName, attribs: { ...attribs, controls: 'controls' } }),
  },
};

/**
 * Every read cleans the stored text again, and lists read the same few texts over and over (a page of
 * help manuals parses each one's HTML on every view): the cleaned text of recently cleaned inputs is kept,
 * up to KEPT_CHARS characters of input and output together, the least recently used dropped first.
 * Cleaning depends only on the text, so a kept answer is the one sanitize-html would give.
 */
const KEPT_CHARS = 4_000_000;
const kept = new Map<string, string>();
let keptChars = 0;

export function cleanHtml(html: string): string {
  const hit = kept.get(html);
  if (hit !== undefined) {
    kept.delete(html);
    kept.set(html, hit);
    return hit;
  }
  const clean = sanitizeHtml(html, OPTIONS);
  const size = html.length + clean.length;
  if (size > KEPT_CHARS / 16) return clean;
  kept.set(html, clean);
  keptChars += size;
  for (const [k, v] of kept) {
    if (keptChars <= KEPT_CHARS) break;
    kept.delete(k);
    keptChars -= k.length + v.length;
  }
  return clean;
}

/** Cleans the entity's html fields of a row or a body in place and returns it. */
export function cleanHtmlFields<T extends Record<string, unknown>>(entity: EntityModel, row: T): T {
  for (const [name, field] of Object.entries(entity.fields)) {
    if (field.format === 'html' && typeof row[name] === 'string') (row as Record<string, unknown>)[name] = cleanHtml(row[name] as string);
  }
  return row;
}
