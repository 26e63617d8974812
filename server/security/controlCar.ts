/**
 * Watch-list vehicles (spec 001 §2.5, §5): the plate is upper-cased by the schema before its rule is
 * checked; the enabled switch saves fId and fState through the same save call.
 */
import { refuse } from '../http/envelope';
import { entity } from '../crud/engine';

type Row = Record<string, unknown>;

/** A time that does not parse is refused with the field's own words rather than failing in the database. */
export function checkTimes(values: Row, fields: string[], entityName = 'controlPerson') {
  for (const field of fields) {
    const value = values[field];
    if (typeof value === 'string' && value && Number.isNaN(Date.parse(value.replace(' ', 'T')))) {
      throw refuse('field.invalid', { label: entity(entityName).fields[field]?.labels ?? field });
    }
  }
}

export async function beforeSave(values: Row) {
  checkTimes(values, ['fStartTime', 'fStartEnd'], 'controlCar');
}
