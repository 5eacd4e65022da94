import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedDatabase {
  /** postgres:// URL of the wire-protocol server, for pg/TypeORM. */
  url: string;
  stop(): Promise<void>;
}


/**
 * PostgreSQL compiled to WASM (PGlite), served over the Postgres wire protocol on 127.0.0.1, so
 * the code talks to it exactly as to a server. `dataDir` unset: in memory (tests).
 */
export async function startEmbeddedDatabase(options: { dataDir?: string; port?: number } = {}): Promise<EmbeddedDatabase> {
  let dir: string | undefined;
  if (options.dataDir) {
    dir = join(options.dataDir, 'pgdata');
    mkdirSync(dir, { recursive: true });
  }
  const db = await PGlite.create(dir);
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: options.port ?? 0, maxConnections: 64 });
  await server.start();
  const [host, port] = server.getServerConn().split(':');
  return {
    url: `postgres://postgres:postgres@${host}:${port}/postgres`,
    async stop() {
      await server.stop();
      // close() checkpoints the data directory: without it the last writes may not survive a restart.
      await db.close();
    },
  };
}
