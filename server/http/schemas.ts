/**
 * JSON Schema checkers. A call's declared body (catalog.ts) and an entity's writable fields
 * (crud/validate.ts) are checked with different Ajv options; both know the picture formats, and each
 * compiles a schema once, the first time it is checked.
 */
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import { PICTURE_FORMATS } from '../../contract/picture';

/** The checker of a schema, by the schema object, for Ajv with these options. */
export function schemaChecker(options: Options): (schema: object) => ValidateFunction {
  const ajv = new Ajv(options);
  // A picture field (`"format": "picture"` / `"pictures"`) holds an uploaded name or an http(s) address.
  for (const [name, validate] of Object.entries(PICTURE_FORMATS)) ajv.addFormat(name, { type: 'string', validate });
  const compiled = new WeakMap<object, ValidateFunction>();
  return (schema) => {
    let v = compiled.get(schema);
    if (!v) {
      v = ajv.compile(schema);
      compiled.set(schema, v);
    }
    return v;
  };
}
