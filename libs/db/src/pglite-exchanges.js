// @ts-check
'use strict';

/*
 * One connection's protocol exchange at a time on the embedded PGlite.
 *
 * PGlite is one PostgreSQL session; pglite-socket (pinned at 0.2.17 in package.json) serves many
 * connections from it by taking their protocol messages in turn, one message at a time, keeping to one
 * connection only while a transaction is open. An extended-protocol query (Parse, Bind, Describe,
 * Execute … Sync: what node-postgres sends for every query with parameters) is not a transaction, so
 * when messages wait (a long statement runs), two connections' queries are interleaved and one binds
 * its parameters to the other's unnamed statement: "bind message supplies 2 parameters, but prepared
 * statement "" requires 1", or rows of the wrong query (electric-sql/pglite issue 1046). Also, a message
 * that throws there leaves the queue stopped for good.
 *
 * `serializeExchanges(server)` replaces the server's queue step (its internal `queryQueue`): a
 * connection that began an exchange is served alone until it ends (a Sync, a simple Query or a
 * Terminate), and while its transaction is open; a connection that goes away frees the queue; a
 * failure never stops it. It is plain JavaScript so that the test database's own process (which runs
 * without a TypeScript loader) uses the same code. It reaches into pglite-socket's internals: an
 * upgrade must pass `pglite-exchanges.int-spec.ts`, which fails without this fix.
 */

/** Message types that leave an exchange open until its Sync: Parse, Bind, Describe, Execute, Close, Flush. */
const OPENS = new Set(['P', 'B', 'D', 'E', 'C', 'H'].map((c) => c.charCodeAt(0)));

/** Others waiting this long (ms) for one connection's next message is reported as a stall (by default). */
const STALL_MS = 30_000;

/**
 * @typedef {{ handlerId: number, message: Uint8Array, resolve: (bytes: number) => void, reject: (error: unknown) => void, onData: (data: Uint8Array) => void }} QueuedMessage
 * @typedef {{ isInTransaction(): boolean, runExclusive<T>(fn: () => Promise<T>): Promise<T>, execProtocolRawStream(message: Uint8Array, options: { onRawData: (data: Uint8Array) => void }): Promise<unknown> }} Session
 * @typedef {{ queue: QueuedMessage[], processing: boolean, lastHandlerId: number | null, db: Session, processQueue(): Promise<void>, clearQueueForHandler(id: number): void }} QueryQueue
 */

/**
 * @param {object} server a started or new PGLiteSocketServer
 * @param {{ stallMs?: number }} [options] `stallMs`: after how long others waiting for one connection is reported
 * @returns {void}
 */
function serializeExchanges(server, options = {}) {
  const stallMs = options.stallMs ?? STALL_MS;
  const queue = /** @type {{ queryQueue?: QueryQueue }} */ (server).queryQueue;
  if (
    !queue ||
    !Array.isArray(queue.queue) ||
    typeof queue.processQueue !== 'function' ||
    typeof queue.clearQueueForHandler !== 'function' ||
    !('lastHandlerId' in queue) ||
    !queue.db ||
    typeof queue.db.execProtocolRawStream !== 'function'
  ) {
    throw new Error(
      'pglite-socket changed: its server has no queryQueue of the shape serializeExchanges fixes (libs/db/src/pglite-exchanges.js)',
    );
  }
  /** The connection whose exchange is open (served alone until it ends). */
  let open = /** @type {number | null} */ (null);
  /** Since when others' messages have waited for one connection's next (null: not waiting). */
  let waitingSince = /** @type {number | null} */ (null);
  /** The owner a stall was reported for (once per stall). */
  let reported = /** @type {number | null} */ (null);
  /** Each connection's last statement (its start), said with a stall it causes. */
  const lastStatement = /** @type {Map<number, string>} */ (new Map());
  // Every other connection waits while one holds an exchange or a transaction open: a connection whose next message
  // never comes stops the whole database. Said once per such stall, naming who holds it, so that it can be found.
  const watchdog = setInterval(() => {
    if (waitingSince === null || q.queue.length === 0 || Date.now() - waitingSince < stallMs) return;
    const owner = open ?? q.lastHandlerId;
    if (reported === owner) return;
    reported = owner;
    const waiting = [...new Set(q.queue.map((m) => m.handlerId))].join(', ');
    const last = owner === null ? undefined : lastStatement.get(owner);
    console.warn(
      `pglite-exchanges: connections #${waiting} have waited ${Math.round((Date.now() - waitingSince) / 1000)} s for ` +
        `connection #${owner} (${open !== null ? 'an exchange open' : 'a transaction open'}): its next message has not come` +
        (last ? `; its last statement: ${last}` : ''),
    );
  }, stallMs / 2);
  watchdog.unref();

  const q = queue;
  q.processQueue = async () => {
    if (q.processing) return;
    q.processing = true;
    try {
      while (q.queue.length > 0) {
        const owner = open ?? (q.db.isInTransaction() ? q.lastHandlerId : null);
        const at = owner === null ? 0 : q.queue.findIndex((m) => m.handlerId === owner);
        // That connection's next message has not come yet: the others wait for it.
        if (at === -1) {
          waitingSince ??= Date.now();
          return;
        }
        waitingSince = null;
        reported = null;
        const [item] = q.queue.splice(at, 1);
        if (!item) return;
        let bytes = 0;
        try {
          await q.db.runExclusive(() =>
            q.db.execProtocolRawStream(item.message, {
              onRawData: (/** @type {Uint8Array} */ data) => {
                bytes += data.length;
                item.onData(data);
              },
            }),
          );
        } catch (error) {
          open = null;
          item.reject(error);
          continue;
        }
        q.lastHandlerId = item.handlerId;
        const statement = statementOf(item.message);
        if (statement) lastStatement.set(item.handlerId, statement);
        open = OPENS.has(item.message[0] ?? 0) ? item.handlerId : null;
        item.resolve(bytes);
      }
    } finally {
      q.processing = false;
    }
  };

  const clear = queue.clearQueueForHandler.bind(queue);
  queue.clearQueueForHandler = (id) => {
    clear(id);
    lastStatement.delete(id);
    if (open === id) open = null;
    void queue.processQueue();
  };
}

const QUERY = 'Q'.charCodeAt(0);
const PARSE = 'P'.charCodeAt(0);

/**
 * The SQL of a simple Query (type, length, the text) or of a Parse (type, length, the statement's name, the
 * text), its first 160 characters on one line; else undefined.
 * @param {Uint8Array} message
 * @returns {string | undefined}
 */
function statementOf(message) {
  const type = message[0];
  if (type !== QUERY && type !== PARSE) return undefined;
  let start = 5;
  if (type === PARSE) start = message.indexOf(0, start) + 1;
  if (start === 0) return undefined;
  const end = message.indexOf(0, start);
  const text = Buffer.from(message.subarray(start, end === -1 ? message.length : end)).toString('utf8');
  return text.replace(/\s+/g, ' ').trim().slice(0, 160);
}

module.exports = { serializeExchanges };
