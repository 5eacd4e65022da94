/** A URL as it may be printed or logged: its password (user:password@) replaced by `***`; unparseable, `***` whole. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '***';
  }
}
