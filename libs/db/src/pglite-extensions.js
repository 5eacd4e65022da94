// The PostgreSQL extensions the schema needs from PGlite, loaded by every embedded instance (embedded.ts for
// the running system, testing/pglite-server.js for tests): btree_gist, for the furnace schedule's exclusion
// constraint (migration 1797400000000). Plain CommonJS, as pglite-exchanges.js: PGlite's contrib modules
// declare ESM types only, and the test server is a plain Node script.
const { btree_gist } = require('@electric-sql/pglite/contrib/btree_gist');

module.exports = { pgliteExtensions: { btree_gist } };
