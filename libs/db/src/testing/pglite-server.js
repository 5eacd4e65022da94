// An in-memory embedded PostgreSQL for one test file, in a process of its own: PGlite loads its WASM
// with a dynamic import, which jest's module sandbox does not allow. Prints the URL, then serves
// until its parent closes stdin.
const { PGlite } = require('@electric-sql/pglite');
const { PGLiteSocketServer } = require('@electric-sql/pglite-socket');
const { serializeExchanges } = require('../pglite-exchanges.js');
const { pgliteExtensions } = require('../pglite-extensions.js');

(async () => {
  const db = await PGlite.create({ extensions: pgliteExtensions });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 64 });
  const stallMs = Number(process.env.PGLITE_STALL_MS);
  serializeExchanges(server, Number.isFinite(stallMs) && stallMs > 0 ? { stallMs } : {});
  await server.start();
  process.stdout.write(`postgres://postgres:postgres@${server.getServerConn()}/postgres\n`);
  const stop = async () => {
    await server.stop().catch(() => undefined);
    await db.close().catch(() => undefined);
    process.exit(0);
  };
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.stdin.resume();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
