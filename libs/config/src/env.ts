import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * Raised when the environment does not describe a runnable process. `problems` holds one line per
 * problem, each starting with the variable it names; the message lists them all.
 */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export type Env = Record<string, string | undefined>;

/** Variable name → the schema of its value (a blank value counts as unset). */
type Fields = Record<string, z.ZodType>;
export type Values<F extends Fields> = { [K in keyof F]: z.output<F[K]> };

/**
 * A check across several variables. It runs only when every variable it `uses` is valid on its own
 * (a bad value is reported once, by its field), and returns the problem's line or nothing.
 */
export interface Rule<V> {
  uses: readonly (keyof V & string)[];
  check(values: V): string | undefined;
}

/**
 * Reads `fields` from `env`, then applies `rules`; every problem of both kinds is reported at once,
 * in one ConfigError. Reads nothing else and writes nothing.
 */
export function readEnv<F extends Fields>(env: Env, fields: F, rules: readonly Rule<Values<F>>[]): Values<F> {
  const values: Record<string, unknown> = {};
  const invalid = new Set<string>();
  const problems: string[] = [];
  for (const [name, schema] of Object.entries(fields)) {
    const parsed = schema.safeParse(env[name]);
    if (parsed.success) {
      values[name] = parsed.data;
    } else {
      invalid.add(name);
      problems.push(...parsed.error.issues.map((i) => `${name}: ${i.message}`));
    }
  }
  for (const rule of rules) {
    if (rule.uses.some((name) => invalid.has(name))) continue;
    const problem = rule.check(values as Values<F>);
    if (problem) problems.push(problem);
  }
  if (problems.length) throw new ConfigError(problems);
  return values as Values<F>;
}

// Field schemas. A blank value is the same as an unset one.

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

export const optionalString = z.preprocess(emptyToUndefined, z.string().optional());

export const stringOr = (fallback: string) => z.preprocess(emptyToUndefined, z.string().default(fallback));

export const port = (fallback: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(fallback));

export const integer = (fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(min).max(max).default(fallback));

export const oneOf = <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) =>
  z.preprocess(
    emptyToUndefined,
    z.enum(values, { message: `expected ${values.slice(0, -1).join(', ')} or ${values.at(-1)}` }).default(fallback),
  );

export const bool = (fallback: boolean) =>
  z.preprocess(
    emptyToUndefined,
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'expected true or false' })
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1' || v === 'yes'),
  );

export const urlWith = (protocols: string[]) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine(
        (v) => {
          try {
            return protocols.includes(new URL(v).protocol);
          } catch {
            return false;
          }
        },
        `expected a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
      )
      .optional(),
  );

const email = z.email({ message: 'expected an e-mail address' });
export const optionalEmail = z.preprocess(emptyToUndefined, email.optional());
export const emailOr = (fallback: string) => z.preprocess(emptyToUndefined, email.default(fallback));

/** A secret or token: at least `min` characters, or unset. */
export const optionalSecret = (min: number, message: string) =>
  z.preprocess(emptyToUndefined, z.string().min(min, message).optional());

/** An MQTT client id or shared-subscription group name. */
export const mqttName = (fallback: string) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'expected 1 to 64 letters, digits, "_", "." or "-"')
      .default(fallback),
  );

/** A comma-separated list whose every item passes `valid`, or unset. */
export const optionalList = (valid: (item: string) => boolean, message: string) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean),
      )
      .refine((list) => list.every(valid), message)
      .optional(),
  );

/** An IPv4/IPv6 address, optionally with a /prefix (what Express's `trust proxy` accepts). */
export function isAddressOrCidr(value: string): boolean {
  const [address, prefix, extra] = value.split('/');
  if (extra !== undefined || !address) return false;
  const family = isIP(address);
  if (!family) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** scheme://host[:port] and nothing more (what a browser sends as Origin). */
export function isOrigin(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === value.replace(/\/+$/, '');
  } catch {
    return false;
  }
}

/** CSP frame-ancestors sources: 'none', 'self' and/or http(s) origins, space- or comma-separated. */
export const frameAncestors = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .default("'none'")
    .transform((v) => v.split(/[\s,]+/).filter(Boolean))
    .pipe(
      z.array(
        z
          .string()
          .refine((s) => ["'none'", "'self'"].includes(s) || /^https?:\/\/(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?$/.test(s), {
            error: (issue) =>
              `expected 'none', 'self' or origins such as https://intranet.lab.example, got ${JSON.stringify(issue.input)}`,
          }),
      ),
    )
    .refine((list) => !list.includes("'none'") || list.length === 1, "'none' cannot be combined with other sources"),
);
