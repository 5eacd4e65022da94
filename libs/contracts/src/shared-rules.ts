/*
 * Rules the dashboard's forms and the API check alike, defined once (docs/behaviour.md §5, §9).
 */

/** A password has at least this many characters. */
export const PASSWORD_MIN_LENGTH = 8;

/** A UUID of any version, hex in either case: the ids of researches, users, e-mail records and configs. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}
