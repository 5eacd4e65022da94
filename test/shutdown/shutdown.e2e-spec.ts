import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@furnace/db/testing';
import { apiEnv, type AppProcess, connectViewer, dropSession, insertResearch, login, missingBuild, startApp, startTestBroker, streamUrl, SUPERUSER, type TestBroker, type TestViewer, uniqueId } from '@furnace/testing';

/*
 * Stopping a built process (`node apps/standalone/dist/main.js`, as `npm start` runs it) while
 * viewers watch and requests keep coming: every request gets an answer or a refused connection,
 * never a hang, and every viewer gets close code 1012 (the dashboard then reconnects at once,
 * to another instance behind the proxy: live-socket.spec.ts). Embedded services unless the
 * machine's are configured.
 */

type Outcome = { kind: 'status'; status: number } | { kind: 'refused' | 'reset' } | { kind: 'hung' } | { kind: 'error'; message: string };

/** One GET, given `timeoutMs` to answer; how it ended. */
async function probe(url: string, timeoutMs: number): Promise<Outcome> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer();
    return { kind: 'status', status: res.status };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string } };
    if (e.name === 'TimeoutError') return { kind: 'hung' };
    const code = e.cause?.code;
    if (code === 'ECONNREFUSED') return { kind: 'refused' };
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return { kind: 'reset' };
    return { kind: 'error', message: `${e.message} ${code ?? ''}` };
  }
}

describe('stopping a process while viewers watch and requests arrive', () => {
  let db: TestDatabase;
  let broker: TestBroker;
  let app: AppProcess | undefined;
  const viewers: TestViewer[] = [];
  const clientId = uniqueId('shutdown-ingest');

  beforeAll(async () => {
    const missing = missingBuild(['standalone']);
    if (missing) throw new Error(missing);
    [db, broker] = await Promise.all([createTestDatabase(), startTestBroker()]);
  });

  afterAll(async () => {
    for (const viewer of viewers) await viewer.close();
    await app?.stop('SIGKILL');
    if (broker?.shared) await dropSession(broker.url, clientId).catch(() => undefined);
    await broker?.stop();
    await db?.drop();
  });

  it('answers 503 or refuses the connection (never hangs), and closes viewers with 1012', async () => {
    app = await startApp('standalone', {
      ...apiEnv({ databaseUrl: db.url, redisUrl: '' }, SUPERUSER),
      MQTT_URL: broker.url,
      MQTT_CLIENT_ID: clientId,
      MQTT_SHARED_SUBSCRIPTION: broker.shared ? 'true' : 'false',
      DEMO: 'false',
    });
    const researchId = await insertResearch(db.url);
    const token = await login({ http: request(app.url) }, SUPERUSER.email, SUPERUSER.password);
    for (let i = 0; i < 5; i++) viewers.push(await connectViewer(streamUrl(app, researchId, { token })));
    const closes = viewers.map((v) => new Promise<number>((resolve) => v.ws.once('close', (code) => resolve(code))));

    // Requests every 10 ms from before the signal until the process is gone, over kept-alive connections
    // (fetch keeps them) and new ones alike.
    const outcomes: Outcome[] = [];
    let stopping = true;
    const health = `${app.url}/api/v1/health`;
    const load = (async () => {
      const pending: Promise<void>[] = [];
      while (stopping) {
        pending.push(probe(health, 5_000).then((o) => void outcomes.push(o)));
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await Promise.all(pending);
    })();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const exited = new Promise<number | null>((resolve) => app!.child.once('exit', (code) => resolve(code)));
    app.child.kill('SIGTERM');
    const code = await exited;
    // A few more after the exit: refused.
    await new Promise((resolve) => setTimeout(resolve, 200));
    stopping = false;
    await load;

    expect(code).toBe(0);
    expect(await Promise.all(closes)).toEqual(viewers.map(() => 1012));
    const kinds = outcomes.map((o) => (o.kind === 'status' ? String(o.status) : o.kind));
    const counts = kinds.reduce<Record<string, number>>((acc, k) => ({ ...acc, [k]: (acc[k] ?? 0) + 1 }), {});
    console.log(`shutdown: ${outcomes.length} requests during the stop: ${JSON.stringify(counts)}`);
    expect(outcomes.filter((o) => o.kind === 'hung' || o.kind === 'error')).toEqual([]);
    expect(kinds.filter((k) => !['200', '503', 'refused', 'reset'].includes(k))).toEqual([]);
    expect(counts.refused ?? 0).toBeGreaterThan(0);
  });
});
