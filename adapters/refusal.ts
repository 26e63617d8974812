/**
 * A refused save that is about one field of what was sent (a duplicate number, a reference that does
 * not exist, a value out of the schema's range) says which field and which rule in its envelope's
 * `data`, beside the spec's Chinese message: the console shows it under that field, in its own language.
 * Clients that read only `message` are unaffected.
 */
export interface RefusedField {
  /** The body's property (`fNumber`). */
  field: string;
  /** The schema rule that failed: required, maxLength, pattern, minimum, maximum, type, enum, format, unique, ref, notBefore. */
  rule: string;
}

/** The refused field an envelope names, if any. */
export function refusedField(envelope: { data?: unknown } | undefined): RefusedField | null {
  const data = envelope?.data as Partial<RefusedField> | null | undefined;
  return data && typeof data.field === 'string' && typeof data.rule === 'string' ? { field: data.field, rule: data.rule } : null;
}
