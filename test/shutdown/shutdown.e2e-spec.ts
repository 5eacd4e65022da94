import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@furnace/db/testing';
import {
  apiEnv,
  type AppProcess,
  connectViewer,
  dropSession,
  insertResearch,
  login,
  missingBuild,
  startApp,
  startTestBroker,
  streamUrl,
  SUPERUSER,
  TEST_REDIS_URL,
  type TestBroker,
  type TestViewer,
  uniqueId,
} from '@furnace/testing';

/*
 * Stopping a built process (`node apps/standalone/dist/main.js`, as `npm start` runs it, and with
 * Redis configured `node apps/api/dist/main.js`, one API instance of a scaled deployment) while
 * viewers watch and requests keep coming: every request gets an answer or a refused connection,
 * never a hang, and every viewer gets close code 1012 (the dashboard then reconnects at once,
 * to another instance behind the proxy: live-socket.spec.ts). Embedded services unless the
 * machine's are configured.
 */

type Outcome =
  | { kind: 'status'; status: number }
  | { kind: 'refused' | 'reset' }
  | { kind: 'hung' }
  | { kind: 'error'; message: string };

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
  const apps: AppProcess[] = [];
  const viewers: TestViewer[] = [];
  const clientId = uniqueId('shutdown-ingest');

  beforeAll(async () => {
    const missing = missingBuild(['standalone', 'api']);
    if (missing) throw new Error(missing);
    [db, broker] = await Promise.all([createTestDatabase(), startTestBroker()]);
  });

  afterAll(async () => {
    for (const viewer of viewers) await viewer.close();
    for (const app of apps) await app.stop('SIGKILL');
    if (broker?.shared) await dropSession(broker.url, clientId).catch(() => undefined);
    await broker?.stop();
    await db?.drop();
  });

  /** Viewers and a stream of requests on `app`, then SIGTERM: how the requests ended, the viewers' close codes, the exit code. */
  async function stopUnderLoad(app: AppProcess) {
    const researchId = await insertResearch(db.url);
    const token = await login({ http: request(app.url) }, SUPERUSER.email, SUPERUSER.password);
    const mine: TestViewer[] = [];
    for (let i = 0; i < 5; i++) mine.push(await connectViewer(streamUrl(app, researchId, { token })));
    viewers.push(...mine);
    const closes = mine.map((v) => new Promise<number>((resolve) => v.ws.once('close', (code) => resolve(code))));

    // Requests every 10 ms from before the signal until after the process is gone, over kept-alive
    // connections (fetch keeps them) and new ones alike.
    const outcomes: Outcome[] = [];
    let running = true;
    const health = `${app.url}/api/v1/health`;
    const load = (async () => {
      const pending: Promise<void>[] = [];
      while (running) {
        pending.push(probe(health, 5_000).then((o) => void outcomes.push(o)));
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await Promise.all(pending);
    })();
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The standalone process exits with 0; the API's Nest shutdown hooks end by re-raising the signal.
    const exited = new Promise<string>((resolve) =>
      app.child.once('exit', (code, signal) => resolve(code === null ? String(signal) : String(code))),
    );
    app.child.kill('SIGTERM');
    const code = await exited;
    await new Promise((resolve) => setTimeout(resolve, 200));
    running = false;
    await load;

    const kinds = outcomes.map((o) => (o.kind === 'status' ? String(o.status) : o.kind));
    const counts = kinds.reduce<Record<string, number>>((acc, k) => ({ ...acc, [k]: (acc[k] ?? 0) + 1 }), {});
    console.log(`shutdown of ${app.app}: ${outcomes.length} requests during the stop: ${JSON.stringify(counts)}`);
    return { code, closeCodes: await Promise.all(closes), outcomes, kinds, counts, viewers: mine.length };
  }

  function expectGraceful(result: Awaited<ReturnType<typeof stopUnderLoad>>) {
    expect(['0', 'SIGTERM']).toContain(result.code);
    expect(result.closeCodes).toEqual(Array.from({ length: result.viewers }, () => 1012));
    expect(result.outcomes.filter((o) => o.kind === 'hung' || o.kind === 'error')).toEqual([]);
    expect(result.kinds.filter((k) => !['200', '503', 'refused', 'reset'].includes(k))).toEqual([]);
    expect(result.counts.refused ?? 0).toBeGreaterThan(0);
  }

  it('npm start (the standalone process) answers 503 or refuses the connection, never hangs, and closes viewers with 1012', async () => {
    const app = await startApp('standalone', {
      ...apiEnv({ databaseUrl: db.url, redisUrl: '' }, SUPERUSER),
      MQTT_URL: broker.url,
      MQTT_CLIENT_ID: clientId,
      MQTT_SHARED_SUBSCRIPTION: broker.shared ? 'true' : 'false',
      // A group of its own: a persistent session another run left in the default group on the machine's
      // Mosquitto would be given every other frame (README, "Scaling": a stopped ingest keeps its share).
      MQTT_SHARED_GROUP: clientId,
      DEMO: 'false',
    });
    apps.push(app);
    expectGraceful(await stopUnderLoad(app));
  });

  // A separate API process needs Redis (its bus): with none configured there is nothing to start.
  (TEST_REDIS_URL ? it : it.skip)('an API process of a scaled deployment does the same', async () => {
    const app = await startApp('api', apiEnv({ databaseUrl: db.url, redisUrl: TEST_REDIS_URL! }, SUPERUSER));
    apps.push(app);
    expectGraceful(await stopUnderLoad(app));
  });
});
