/** A file in an answer: its name as the browser saves it. */

/** RFC 5987: a plain ASCII fallback for old clients, the UTF-8 name for everyone else. */
export function attachment(fileName: string, fallback: string): string {
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
