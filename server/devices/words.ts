/**
 * Words that read right in every language: a reason's parameter worded per language (a command's name,
 * the lines of a batch), built from the catalogue's texts (schemas/reasons/) rather than written here.
 */
import { LANGUAGES, type Language, type Reason } from '../../contract/reasons';
import { reason, textOf } from '../http/envelope';
import type { PlainReasonCode } from '../../contract/generated/reasons';

/** One text per language, each made by `word`. */
export const inLanguages = (word: (language: Language) => string): Record<Language, string> =>
  Object.fromEntries(LANGUAGES.map((language) => [language, word(language)])) as Record<Language, string>;

/** A reason's text in every language. */
export const wordsOf = (why: Reason): Record<Language, string> => inLanguages((language) => textOf(why, language));

/** A text code of the catalogue (a column's header, a command's name) in every language. */
export const words = (code: PlainReasonCode): Record<Language, string> => wordsOf(reason(code));

/** A text code of the catalogue in zh-CN, as the legacy answers and the stored rows carry it. */
export const zh = (code: PlainReasonCode): string => textOf(reason(code));

/** Reasons joined into one text per language (the problems of a refused parameter set). */
export const joined = (reasons: Reason[], separator: string): Record<Language, string> =>
  inLanguages((language) => reasons.map((r) => textOf(r, language)).join(separator));
