// Readers of the deployment files for infra/test: the compose file as compose reads it (YAML with
// merge keys), its ${VAR} interpolation, nginx's configuration syntax, mosquitto's ACL and
// .dockerignore patterns. Small parsers, so that the tests assert structure rather than grep text.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

export const ROOT = join(__dirname, '..', '..');

export function repoFile(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

export function repoFileExists(path: string): boolean {
  return existsSync(join(ROOT, path));
}

// ---------------------------------------------------------------------------------------------
// docker-compose.yml

interface ComposeHealthcheck {
  test?: string | string[];
  disable?: boolean;
  interval?: string;
  timeout?: string;
  retries?: number;
  start_period?: string;
}

export interface ComposeService {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  environment?: Record<string, string | number | boolean | null> | string[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: ComposeHealthcheck;
  ports?: (string | Record<string, unknown>)[];
  volumes?: (string | Record<string, unknown>)[];
  deploy?: { replicas?: number };
  command?: string | string[];
  entrypoint?: string | string[];
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The compose file as docker compose reads it: YAML 1.1 merge keys (<<) resolved. */
export function parseCompose(text: string): ComposeFile {
  return parse(text, { merge: true }) as ComposeFile;
}

export function loadCompose(): ComposeFile {
  return parseCompose(repoFile('docker-compose.yml'));
}

/** Every string value in a parsed YAML document. */
export function stringsOf(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  if (Array.isArray(node)) return node.flatMap(stringsOf);
  if (node !== null && typeof node === 'object') return Object.values(node).flatMap(stringsOf);
  return [];
}

/** A service's environment as a map (compose accepts a map or a list of NAME=value). */
export function environmentOf(service: ComposeService): Record<string, string> {
  const env = service.environment ?? {};
  if (Array.isArray(env)) {
    return Object.fromEntries(
      env.map((entry) => {
        const at = entry.indexOf('=');
        return at < 0 ? [entry, ''] : [entry.slice(0, at), entry.slice(at + 1)];
      }),
    );
  }
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null ? '' : String(v)]));
}

export function dockerfileOf(service: ComposeService): string | undefined {
  return typeof service.build === 'object' ? service.build.dockerfile : undefined;
}

/** How many containers a service runs. */
export function replicasOf(service: ComposeService): number {
  return service.deploy?.replicas ?? 1;
}

export interface Interpolation {
  /** The text as written, e.g. ${SECRET_KEY:?set it}. */
  raw: string;
  name: string;
  /** ':?' (required, non-empty), '?' (required), ':-' / '-' (default), ':+' / '+' (alternative), '' (plain). */
  operator: string;
  /** The message of ? forms, the default of - forms. */
  argument: string;
}

/** Every ${NAME…} and $NAME in a compose text; $$ is compose's escape for a literal $. */
export function interpolations(text: string): Interpolation[] {
  const unescaped = text.replace(/\$\$/g, '');
  const found: Interpolation[] = [];
  const braced = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}/g;
  for (const m of unescaped.matchAll(braced)) {
    found.push({ raw: m[0], name: m[1]!, operator: m[2] ?? '', argument: m[3] ?? '' });
  }
  const bare = /\$([A-Za-z_][A-Za-z0-9_]*)/g;
  for (const m of unescaped.replace(braced, '').matchAll(bare)) {
    found.push({ raw: m[0], name: m[1]!, operator: '', argument: '' });
  }
  return found;
}

/**
 * Compose's interpolation of one value (the forms docker-compose.yml uses): ${X:?msg} fails with
 * msg when X is unset or empty, ${X:-default} falls back when X is unset or empty, $$ is a $.
 */
export function interpolate(value: string, env: Record<string, string | undefined>): string {
  return value
    .split('$$')
    .map((part) =>
      part.replace(
        /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}/g,
        (_raw, name: string, op: string | undefined, arg: string | undefined) => {
          const v = env[name];
          const empty = v === undefined || v === '';
          switch (op) {
            case ':?':
              if (empty) throw new Error(`required variable ${name} is missing a value: ${arg ?? ''}`);
              return v!;
            case '?':
              if (v === undefined) throw new Error(`required variable ${name} is missing a value: ${arg ?? ''}`);
              return v;
            case ':-':
              return empty ? (arg ?? '') : v!;
            case '-':
              return v === undefined ? (arg ?? '') : v;
            case ':+':
              return empty ? '' : (arg ?? '');
            case '+':
              return v === undefined ? '' : (arg ?? '');
            default:
              return v ?? '';
          }
        },
      ),
    )
    .join('$');
}

/** NAME=value lines of an .env file (comments and blank lines skipped). */
export function parseDotenv(text: string): Map<string, string> {
  const vars = new Map<string, string>();
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const at = trimmed.indexOf('=');
    if (at < 0) throw new Error(`not a NAME=value line: ${line}`);
    vars.set(trimmed.slice(0, at), trimmed.slice(at + 1));
  }
  return vars;
}

// ---------------------------------------------------------------------------------------------
// nginx.conf

export interface NginxDirective {
  name: string;
  args: string[];
  /** The directives inside its { } block, if it has one. */
  block?: NginxDirective[];
}

/** nginx's configuration syntax: directives ending in ';' or followed by a { } block; # comments; quotes. */
export function parseNginx(text: string): NginxDirective[] {
  const tokens: { value: string; quoted: boolean }[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i += 1;
    } else if (c === '#') {
      while (i < text.length && text[i] !== '\n') i += 1;
    } else if (c === '{' || c === '}' || c === ';') {
      tokens.push({ value: c, quoted: false });
      i += 1;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      let value = '';
      while (j < text.length && text[j] !== c) {
        if (text[j] === '\\' && j + 1 < text.length) j += 1;
        value += text[j];
        j += 1;
      }
      if (j >= text.length) throw new Error('nginx.conf: unterminated quoted string');
      tokens.push({ value, quoted: true });
      i = j + 1;
    } else {
      let j = i;
      while (j < text.length && !/[\s{};]/.test(text[j]!)) j += 1;
      tokens.push({ value: text.slice(i, j), quoted: false });
      i = j;
    }
  }
  let at = 0;
  const parseBlock = (nested: boolean): NginxDirective[] => {
    const directives: NginxDirective[] = [];
    while (at < tokens.length) {
      const token = tokens[at]!;
      if (!token.quoted && token.value === '}') {
        if (!nested) throw new Error('nginx.conf: unexpected }');
        at += 1;
        return directives;
      }
      const name = token.value;
      const args: string[] = [];
      at += 1;
      for (;;) {
        const next = tokens[at];
        if (!next) throw new Error(`nginx.conf: directive "${name}" is not terminated`);
        at += 1;
        if (!next.quoted && next.value === ';') {
          directives.push({ name, args });
          break;
        }
        if (!next.quoted && next.value === '{') {
          directives.push({ name, args, block: parseBlock(true) });
          break;
        }
        if (!next.quoted && next.value === '}') throw new Error(`nginx.conf: directive "${name}" is not terminated`);
        args.push(next.value);
      }
    }
    if (nested) throw new Error('nginx.conf: missing }');
    return directives;
  };
  return parseBlock(false);
}

export function children(block: NginxDirective[] | undefined, name: string): NginxDirective[] {
  return (block ?? []).filter((d) => d.name === name);
}

export function child(
  block: NginxDirective[] | undefined,
  name: string,
  ...args: string[]
): NginxDirective | undefined {
  return children(block, name).find((d) => args.every((a, i) => d.args[i] === a));
}

/** Seconds in an nginx time such as 90, 90s, 10m, 1h. */
export function nginxSeconds(value: string): number {
  const m = /^(\d+)(ms|s|m|h|d)?$/.exec(value);
  if (!m) throw new Error(`not an nginx time: ${value}`);
  const unit = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h' | 'd'];
  return Number(m[1]) * unit;
}

/** Bytes in an nginx size such as 512, 16k, 16m, 1g. */
export function nginxBytes(value: string): number {
  const m = /^(\d+)([kKmMgG])?$/.exec(value);
  if (!m) throw new Error(`not an nginx size: ${value}`);
  const unit = { k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(m[2] ?? '').toLowerCase() as 'k' | 'm' | 'g'] ?? 1;
  return Number(m[1]) * unit;
}

// ---------------------------------------------------------------------------------------------
// mosquitto ACL

interface AclRule {
  access: 'read' | 'write' | 'readwrite' | 'deny';
  topic: string;
}

export interface Acl {
  /** Rules before the first `user` line: mosquitto applies them to every client, anonymous ones too. */
  everyone: AclRule[];
  /** `pattern` lines: they apply to every client as well. */
  patterns: string[];
  users: Map<string, AclRule[]>;
}

export function parseAcl(text: string): Acl {
  const acl: Acl = { everyone: [], patterns: [], users: new Map() };
  let current: AclRule[] = acl.everyone;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [keyword, ...rest] = line.split(/\s+/);
    if (keyword === 'user') {
      current = [];
      acl.users.set(rest.join(' '), current);
    } else if (keyword === 'topic') {
      const access = ['read', 'write', 'readwrite', 'deny'].includes(rest[0]!)
        ? (rest.shift() as AclRule['access'])
        : 'readwrite';
      current.push({ access, topic: rest.join(' ') });
    } else if (keyword === 'pattern') {
      acl.patterns.push(rest.join(' '));
    } else {
      throw new Error(`acl: unknown line "${line}"`);
    }
  }
  return acl;
}

// ---------------------------------------------------------------------------------------------
// .dockerignore

/**
 * Whether .dockerignore keeps a path (relative to the build context) out of the context: Docker's
 * rules for the patterns used here (*, ?, **, a leading !, a directory excluding what it contains;
 * the last matching pattern wins).
 */
export function dockerIgnored(patterns: string[], path: string): boolean {
  let ignored = false;
  for (const raw of patterns) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const negate = line.startsWith('!');
    const pattern = (negate ? line.slice(1) : line).replace(/^\/+|\/+$/g, '');
    const regex = new RegExp(
      `^${pattern
        .split('**')
        .map((part) =>
          part
            .replace(/[.+^${}()|[\]\\]/g, '\\$&')
            .replace(/\*/g, '[^/]*')
            .replace(/\?/g, '[^/]'),
        )
        .join('.*')
        .replace(/\.\*\//g, '(?:.*/)?')}(?:/.*)?$`,
    );
    if (regex.test(path)) ignored = !negate;
  }
  return ignored;
}
