// What the k6 scripts share: their environment variables, the deployment's URLs and the staff login.
import { check, fail } from 'k6';
import http from 'k6/http';
import type { JSONValue } from 'k6';

/** A required environment variable (`k6 run -e NAME=value` or the shell's environment). */
export function requireEnv(name: string): string {
  const value = __ENV[name];
  if (value === undefined || value.trim() === '') fail(`${name} is not set (k6 run -e ${name}=…)`);
  return value.trim();
}

export function optionalEnv(name: string, fallback: string): string {
  const value = __ENV[name];
  return value === undefined || value.trim() === '' ? fallback : value.trim();
}

export function numberEnv(name: string, fallback: number): number {
  const raw = optionalEnv(name, String(fallback));
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) fail(`${name}: expected a non-negative number, got "${raw}"`);
  return value;
}

/** A k6 duration such as "90s", "5m" or "1h30m" (the format of stages), in seconds. */
export function durationSeconds(text: string): number {
  const parts = text.match(/\d+(?:\.\d+)?(?:ms|s|m|h)/g);
  if (!parts || parts.join('') !== text) fail(`"${text}" is not a duration such as 90s, 5m or 1h30m`);
  const unit: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };
  return parts.reduce((sum, part) => {
    const [, amount, suffix] = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(part) ?? [];
    return sum + Number(amount) * (unit[suffix ?? 's'] ?? 1);
  }, 0);
}

/** BASE_URL without a trailing slash: the deployment's public address, e.g. https://furnace.example.com. */
function baseUrl(): string {
  return requireEnv('BASE_URL').replace(/\/+$/, '');
}

export function apiUrl(path: string): string {
  return `${baseUrl()}/api/v1${path}`;
}

/** The same address over WebSocket (ws:// for http://, wss:// for https://). */
export function wsUrl(path: string): string {
  return `${baseUrl().replace(/^http/, 'ws')}/api/v1${path}`;
}

/** Signs a staff member in (POST /api/v1/login/access-token, a form) and returns the bearer token. */
export function login(email: string, password: string): string | null {
  const res = http.post(apiUrl('/login/access-token'), { username: email, password }, { tags: { name: 'login' } });
  const token = field(res.status === 200 ? safeJson(res.body) : null, 'access_token');
  const ok = check(res, {
    'login: 200': (r) => r.status === 200,
    'login: token issued': () => typeof token === 'string' && token.length > 0,
  });
  return ok && typeof token === 'string' ? token : null;
}

/** The staff credentials the scripts sign in with. */
export function staffCredentials(): { email: string; password: string } {
  return { email: requireEnv('FURNACE_EMAIL'), password: requireEnv('FURNACE_PASSWORD') };
}

export function authHeaders(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

export function safeJson(body: unknown): JSONValue {
  if (typeof body !== 'string') return null;
  try {
    return JSON.parse(body) as JSONValue;
  } catch {
    return null;
  }
}

/** obj[key] when obj is a JSON object, undefined otherwise. */
export function field(obj: JSONValue | undefined, key: string): JSONValue | undefined {
  return obj !== null && typeof obj === 'object' && !Array.isArray(obj) ? obj[key] : undefined;
}

/** A comma-separated list of research ids (UUIDs), lower-cased as the API normalises them. */
export function researchIds(text: string): string[] {
  const ids = text
    .split(',')
    .map((id) => id.trim().toLowerCase())
    .filter((id) => id !== '');
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  const bad = ids.filter((id) => !uuid.test(id));
  if (ids.length === 0 || bad.length > 0) fail(`expected research ids (UUIDs) separated by commas, got "${text}"`);
  return ids;
}
