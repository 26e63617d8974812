/**
 * The JSON Schemas a declaration gives a call's body and answer (a call of resources/calls/, or an
 * endpoint of a resource file with a handler): a file may name shapes it defines once under `$defs` with
 * `{ "$ref": "#/$defs/<name>" }`, which are written in where they are named, so the server's checker, the
 * API document and the console's types read one self-contained schema.
 */
type Schema = Record<string, unknown>;

const LOCAL_REF = /^#\/\$defs\/([A-Za-z0-9_]+)$/;

/** A body or answer with its `#/$defs/<name>` references replaced by the file's definitions; properties beside a reference win. */
export function inlineDefs(schema: unknown, defs: Record<string, Schema>, missing: (name: string) => void, depth = 0): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inlineDefs(s, defs, missing, depth));
  if (!schema || typeof schema !== 'object') return schema;
  const ref = (schema as Schema).$ref;
  if (typeof ref === 'string' && LOCAL_REF.test(ref)) {
    const name = LOCAL_REF.exec(ref)![1];
    const def = defs[name];
    if (!def || depth > 16) {
      missing(name);
      return {};
    }
    const { $ref: _ref, ...rest } = schema as Schema;
    return { ...(inlineDefs(def, defs, missing, depth + 1) as Schema), ...(inlineDefs(rest, defs, missing, depth) as Schema) };
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, inlineDefs(v, defs, missing, depth)]));
}
