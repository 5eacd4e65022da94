/**
 * A record without what must differ between two copies of one test (an archive's round trip): ids
 * (thermo_id aside: it names a thermocouple), and when things were computed, created or updated.
 */
export function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !/(^id$|_id$|computed_at|updated_at|created_at)/.test(k) || k === 'thermo_id')
        .map(([k, v]) => [k, comparable(v)]),
    );
  }
  return value;
}
