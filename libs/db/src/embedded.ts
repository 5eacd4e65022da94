import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { pgliteExtensions } from './pglite-extensions';
import { serializeExchanges } from './pglite-exchanges';

export interface EmbeddedDatabase {
  /** postgres:// URL of the wire-protocol server, for pg/TypeORM (the host is the socket's directory). */
  url: string;
  /** The Unix socket the server listens on. */
  socketPath: string;
  stop(): Promise<void>;
}

/** The port number only names the socket file (`.s.PGSQL.5432`), as PostgreSQL's own sockets are named. */
const SOCKET_PORT = 5432;
/** sun_path holds 108 bytes on Linux (104 on macOS); longer paths cannot be bound. */
const MAX_SOCKET_PATH = 100;

/** True when something answers on the socket (another process serving this data directory). */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(path);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/**
 * PostgreSQL compiled to WASM (PGlite), served over the Postgres wire protocol so the code talks to
 * it exactly as to a server. PGlite checks no password, so it listens on a Unix socket that only
 * this process's user can open: `DATA_DIR/run/.s.PGSQL.5432`, the directory 0700 and the socket 0600
 * (a TCP port on 127.0.0.1 would be open to every local user); its files in `DATA_DIR/pgdata`, 0700. When that path is too long for a
 * socket, a private directory under the system's temporary directory is used. `dataDir` unset: the
 * database is in memory (tests).
 */
export async function startEmbeddedDatabase(options: { dataDir?: string } = {}): Promise<EmbeddedDatabase> {
  let dir: string | undefined;
  let runDir: string | undefined;
  if (options.dataDir) {
    dir = join(options.dataDir, 'pgdata');
    // PGlite writes its files 0666: the directory alone keeps other local users from reading or
    // rewriting them (password hashes, clients' codes), also in a data directory made before.
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    runDir = join(options.dataDir, 'run');
  }
  let temporary = false;
  if (!runDir || join(runDir, `.s.PGSQL.${SOCKET_PORT}`).length > MAX_SOCKET_PATH) {
    runDir = mkdtempSync(join(tmpdir(), 'furnace-pg-'));
    temporary = true;
  }
  mkdirSync(runDir, { recursive: true, mode: 0o700 });
  chmodSync(runDir, 0o700);
  const socketPath = join(runDir, `.s.PGSQL.${SOCKET_PORT}`);
  if (existsSync(socketPath)) {
    if (await answers(socketPath))
      throw new Error(
        `Another process serves the embedded database at ${socketPath} (is the system already running with this DATA_DIR?)`,
      );
    rmSync(socketPath, { force: true }); // left by a process that was killed
  }
  const db = await PGlite.create(dir, { extensions: pgliteExtensions });
  const server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 64 });
  serializeExchanges(server);
  await server.start();
  chmodSync(socketPath, 0o600);
  return {
    url: `postgres://postgres@${encodeURIComponent(runDir)}:${SOCKET_PORT}/postgres`,
    socketPath,
    async stop() {
      await server.stop();
      // close() checkpoints the data directory: without it the last writes may not survive a restart.
      await db.close();
      rmSync(temporary ? runDir : socketPath, { recursive: true, force: true });
    },
  };
}
