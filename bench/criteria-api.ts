// `npm run bench:criteria-api`: GET /research/{id}/criteria over a finished 4-hour test at 1 Hz with
// 300 thermocouples (14 400 frames): the first request (nobody keeps the test's criteria yet: the engine
// over every stored frame, read in pages, once) and the next ones (answered from the kept state), against
// reading the same frames through the API as the lab's CSV (GET /history.csv: the same pass with the
// criteria engine, each row also formatted and sent) and with plain SQL, in the same run.
import request from 'supertest';
import { login, SUPERUSER } from '@furnace/testing';
import { storeFinishedTest } from './lib/finished-test';
import { startServices } from './lib/services';
import { fmt, percentile, ratio, sortedCopy, table } from './lib/stats';

const CHANNELS = 300;
const FRAMES = 4 * 3600;
const REQUESTS = 5;

interface Timing {
  label: string;
  p50: number;
  p95: number;
}

async function timed(label: string, run: () => Promise<unknown>): Promise<Timing> {
  await run(); // warm-up: caches, JIT
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  const sorted = sortedCopy(times);
  return { label, p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

async function main() {
  const services = await startServices();
  const test = await storeFinishedTest(services, { seconds: FRAMES, channels: CHANNELS });
  const { researchId, client, system } = test;
  try {
    const token = await login({ http: request(system.api.url) }, SUPERUSER.email, SUPERUSER.password);
    const get = async (path: string) => {
      const res = await fetch(`${system.api.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${body.slice(0, 200)}`);
      return body;
    };
    const started = performance.now();
    await get(`/api/v1/research/${researchId}/criteria`);
    const firstMs = performance.now() - started;
    const first: Timing = {
      label: 'GET /criteria, the first (engine over every frame, then kept)',
      p50: firstMs,
      p95: firstMs,
    };
    const criteria = await timed('GET /criteria, kept', () => get(`/api/v1/research/${researchId}/criteria`));
    const snapshot = JSON.parse(await get(`/api/v1/research/${researchId}/criteria`)) as {
      t0: number;
      classification: string;
      failures: unknown[];
    };
    const baselines = [
      await timed('raw rows, SQL (SELECT … ORDER BY time, parsed by pg)', () =>
        client.query(
          'SELECT "time", radiance, pressure, pk, thermocouples, faults FROM reading WHERE research_id = $1 ORDER BY "time"',
          [researchId],
        ),
      ),
      await timed('the frames through the API as CSV (GET /history.csv)', () =>
        get(`/api/v1/research/${researchId}/history.csv`),
      ),
    ];
    const raw = baselines[0]!;
    console.log(
      [
        `Criteria API: ${fmt(FRAMES + 60)} frames (4 h at 1 Hz, 60 s before ignition) × ${CHANNELS} thermocouples, ${REQUESTS} sequential requests each`,
        `  (${services.describe.database}; the answer: T0 ${snapshot.t0.toFixed(2)} °C, ${snapshot.failures.length} failures, "${snapshot.classification}")`,
        '',
        table(
          ['read', 'p50 ms', 'p95 ms', 'p50 ÷ raw SQL', 'p95 ÷ raw SQL'],
          [first, criteria, ...baselines].map((t) => [
            t.label,
            fmt(t.p50),
            fmt(t.p95),
            ratio(t.p50, raw.p50),
            ratio(t.p95, raw.p95),
          ]),
        ),
      ].join('\n'),
    );
  } finally {
    await test.close();
    await services.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
