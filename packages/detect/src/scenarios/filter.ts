import type { FieldValue, ParsedFields } from '../event.ts';
import type { ScenarioFilter } from './schema.ts';

export type EventFilter = (fields: ParsedFields) => boolean;

/** Every condition must hold; a list means any of its values; a field the event lacks fails. */
export function compileFilter(filter: ScenarioFilter): EventFilter {
  const conditions = Object.entries(filter).map(([field, wanted]) => {
    const values = new Set<FieldValue>(Array.isArray(wanted) ? wanted : [wanted as FieldValue]);
    return (fields: ParsedFields) => {
      const value = fields[field as keyof ParsedFields];
      return value !== undefined && values.has(value);
    };
  });
  return (fields) => conditions.every((condition) => condition(fields));
}
