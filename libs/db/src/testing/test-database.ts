import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createDataSource } from '../data-source';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { migrations } from '../migrations';

export interface TestDatabase {
  url: string;
  /** Drops the database (server) or stops the embedded instance. */
  drop(): Promise<void>;
}

// Tests read their environment directly: they are not part of the running system's configuration.
const serverUrl = () => process.env.TEST_DATABASE_URL || undefined;

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** The migrated template's name changes whenever the set of migrations does. */
/** Named by the migrations' names and code: a migration edited while it is being written gets a new template. */
function templateName(): string {
  const hash = createHash('sha1')
    .update(migrations.map((m) => `${m.name}:${m.prototype.up.toString()}:${m.prototype.down.toString()}`).join(','))
    .digest('hex')
    .slice(0, 12);
  return `furnace_tmpl_${hash}`;
}

async function ensureTemplate(admin: Client, adminUrl: string, name: string): Promise<void> {
  // One worker builds the template; the others wait on the lock and then find it.
  await admin.query('SELECT pg_advisory_lock(727274)');
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return;
    const building = `${name}_building_${randomBytes(3).toString('hex')}`;
    await admin.query(`CREATE DATABASE "${building}"`);
    const ds = createDataSource({ url: withDatabase(adminUrl, building), poolSize: 1, logging: ['error'] });
    await ds.initialize();
    await ds.runMigrations();
    await ds.destroy();
    await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
  } finally {
    await admin.query('SELECT pg_advisory_unlock(727274)');
  }
}

/**
 * An in-memory PGlite served over the wire protocol by a child process (see pglite-server.js); not migrated.
 * `stallMs`: after how long the server reports a connection that holds the others (pglite-exchanges.js); `stderr`:
 * given what the server writes there (else it goes to this process's).
 */
export function spawnEmbeddedDatabase(
  options: { stallMs?: number; stderr?: (text: string) => void } = {},
): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [join(__dirname, 'pglite-server.js')], {
    stdio: ['pipe', 'pipe', options.stderr ? 'pipe' : 'inherit'],
    env: { ...process.env, ...(options.stallMs !== undefined ? { PGLITE_STALL_MS: String(options.stallMs) } : {}) },
  });
  const stderr = options.stderr;
  if (stderr) child.stderr!.on('data', (chunk: Buffer) => stderr(chunk.toString()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`embedded database exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (!out.includes('\n')) return;
      child.removeAllListeners('exit');
      resolve({
        url: line.trim(),
        stop: () =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            child.stdin!.end();
          }),
      });
    });
  });
}

/**
 * A fresh, migrated database for one test file: on TEST_DATABASE_URL's server a copy of a migrated
 * template; with nothing configured, an in-memory embedded PGlite.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const base = serverUrl();
  if (!base) {
    const embedded = await spawnEmbeddedDatabase();
    const ds = createDataSource({ url: embedded.url, poolSize: 1, logging: ['error'] });
    await ds.initialize();
    await ds.runMigrations();
    await ds.destroy();
    return { url: embedded.url, drop: () => embedded.stop() };
  }
  const admin = new Client({ connectionString: base });
  await admin.connect();
  try {
    const template = templateName();
    await ensureTemplate(admin, base, template);
    const name = `furnace_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
    const url = withDatabase(base, name);
    return {
      url,
      async drop() {
        const c = new Client({ connectionString: base });
        await c.connect();
        try {
          await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        } finally {
          await c.end();
        }
      },
    };
  } finally {
    await admin.end();
  }
}
