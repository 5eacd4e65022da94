/** A short name for the kind of a value, for error messages ("got string"). */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
    return 'number';
  }
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** `['thermocouples_out', 3]` → `thermocouples_out[3]`; the empty path is the payload itself. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? 'payload' : out;
}
