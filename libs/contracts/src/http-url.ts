/*
 * Links staff give (a research's camera stream links): the API accepts only absolute http(s) URLs, and
 * the dashboard checks them the same way before it sends them and before it embeds one.
 */

const HTTP_PREFIX = /^https?:\/\//i;

/** `link` (trimmed) as an absolute http(s) URL with a host, or null. */
export function parseHttpUrl(link: string): URL | null {
  const text = link.trim();
  // The prefix check also refuses forms the URL parser would repair, such as `http:host`.
  if (!HTTP_PREFIX.test(text)) return null;
  try {
    const url = new URL(text);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return null;
    return url;
  } catch {
    return null;
  }
}

/** Whether `value` is an absolute http(s) URL with a host. */
export function isHttpUrl(value: string): boolean {
  return parseHttpUrl(value) !== null;
}
