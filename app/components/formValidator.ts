/**
 * Validation for the forms react-jsonschema-form renders from schemas built at run time (device
 * parameters, product command panels), without compiling schemas: the console's Content-Security-Policy
 * has no 'unsafe-eval', so AJV, which builds validators with new Function, cannot run in the page. These
 * schemas are flat objects of integers, numbers, strings and booleans, checked here directly by the
 * keywords they use: required, type, minimum, maximum, enum, oneOf of consts, maxLength, pattern.
 */
import { toErrorSchema, type RJSFSchema, type RJSFValidationError, type ValidatorType } from '@rjsf/utils';

type Values = Record<string, unknown> | undefined;

function error(name: string, key: string, property: RJSFSchema, message: string, params: object = {}): RJSFValidationError {
  return { name, property: `.${key}`, params, message, stack: `.${key} ${message}`, schemaPath: `#/properties/${key}/${name}`, title: property.title };
}

function fitsType(type: unknown, value: unknown): boolean {
  switch (type) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    default:
      return true;
  }
}

export function validateFlat(schema: RJSFSchema, data: Values): RJSFValidationError[] {
  const errors: RJSFValidationError[] = [];
  const properties = (schema.properties ?? {}) as Record<string, RJSFSchema>;
  const required = new Set(schema.required ?? []);
  for (const [key, property] of Object.entries(properties)) {
    const value = data?.[key];
    if (value === undefined || value === null || value === '') {
      if (required.has(key)) errors.push(error('required', key, property, 'is required', { missingProperty: key }));
      continue;
    }
    if (!fitsType(property.type, value)) {
      errors.push(error('type', key, property, `must be ${String(property.type)}`, { type: property.type }));
      continue;
    }
    if (typeof value === 'number') {
      if (typeof property.minimum === 'number' && value < property.minimum) errors.push(error('minimum', key, property, `must be >= ${property.minimum}`, { limit: property.minimum }));
      if (typeof property.maximum === 'number' && value > property.maximum) errors.push(error('maximum', key, property, `must be <= ${property.maximum}`, { limit: property.maximum }));
    }
    if (Array.isArray(property.enum) && !property.enum.includes(value as never)) errors.push(error('enum', key, property, 'must be one of the allowed values'));
    if (Array.isArray(property.oneOf) && !(property.oneOf as RJSFSchema[]).some((o) => o.const === value)) errors.push(error('oneOf', key, property, 'must be one of the allowed values'));
    if (typeof value === 'string') {
      if (typeof property.maxLength === 'number' && value.length > property.maxLength) errors.push(error('maxLength', key, property, `must be at most ${property.maxLength} characters`));
      if (typeof property.pattern === 'string' && !new RegExp(property.pattern).test(value)) errors.push(error('pattern', key, property, 'has the wrong format'));
    }
  }
  return errors;
}

export const flatValidator: ValidatorType<Values, RJSFSchema> = {
  validateFormData(formData, schema, _customValidate, transformErrors, uiSchema) {
    let errors = validateFlat(schema, formData);
    if (transformErrors) errors = transformErrors(errors, uiSchema);
    return { errors, errorSchema: toErrorSchema<Values>(errors) };
  },
  isValid(schema, formData) {
    return validateFlat(schema, formData).length === 0;
  },
  rawValidation(schema, formData) {
    return { errors: validateFlat(schema, formData) as never[] };
  },
};

/**
 * The onError of a form that shows its messages under the fields: without one, rjsf reports every refused
 * submit to the browser console as an error.
 */
export const ignoreReported = () => undefined;
