/**
 * A failure notice as the specification words them: the screen's failure text followed by the server's
 * reason, already in the console's language ("产品保存失败:产品编号已存在"); without a reason the
 * failure text stands alone.
 */
export function failureText(translate: (key: string, options?: Record<string, unknown>) => string, key: string, reason: unknown): string {
  const text = translate(key);
  const why = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : '';
  return why ? `${text}:${why}` : text;
}
