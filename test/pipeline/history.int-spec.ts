import { randomUUID } from 'node:crypto';
import { REBUILD_ROLLUPS_SQL } from '@furnace/db';
import {
  connectViewer,
  dropSession,
  insertClient,
  insertMarkers,
  insertResearch,
  login,
  startTestBroker,
  streamUrl,
  SUPERUSER,
  type TestBroker,
  type TestViewer,
  waitFor,
} from '@furnace/testing';
import type { RunningIngest } from '@furnace/ingest';
import { startSimulator } from '@furnace/simulator';
import { ingestConfig, startTestIngest } from '@furnace/ingest/testing';
import { auth, startTestApi, type TestApi, viewerTokenFor } from '@furnace/api-server/testing';

interface Series {
  key: string;
  kind: string;
  min: (number | null)[];
  max: (number | null)[];
  mean: (number | null)[];
}

/** 10 000 frames, one a second: pk and thermocouples rise slowly; one spike in pk and one in thermocouple 2. */
async function insertTest(api: TestApi, researchId: string): Promise<void> {
  await api.dataSource.query(
    `INSERT INTO reading (research_id, "time", ts, radiance, pressure, pk, thermocouples)
     SELECT $1, t, now() + t * INTERVAL '1 second', 1.5, 17,
            CASE WHEN t = 5001 THEN 2500 ELSE 500 + t / 100.0 END,
            ARRAY[20 + t / 1000.0, CASE WHEN t = 7777 THEN 900 ELSE 21 END, CASE WHEN t % 2 = 0 THEN NULL ELSE 30 END]::real[]
     FROM generate_series(0, 9999) AS t`,
    [researchId],
  );
  // Written in bulk, not by the ingest: the rollups are computed from the stored frames.
  for (const sql of REBUILD_ROLLUPS_SQL) await api.dataSource.query(sql, [researchId]);
}

describe('history /api/v1/research/{id}/history and history.csv', () => {
  let api: TestApi;
  let staff: string;
  let researchId: string;

  beforeAll(async () => {
    api = await startTestApi();
    staff = await login(api, SUPERUSER.email, SUPERUSER.password);
    researchId = await insertResearch(api.db.url, { name: 'Ściana EI 60 łączona' });
    await insertMarkers(api.dataSource, researchId, { 1: 'Tśr i Tmax', 2: 'Tśr i Tmax', 3: 'Tmax' });
    await insertTest(api, researchId);
  });
  afterAll(() => api?.close());

  const get = (path: string, token = staff) => api.http.get(path).set(auth(token));
  const seriesOf = (body: { series: Series[] }, key: string) => body.series.find((s) => s.key === key)!;

  it('downsamples every series to at most N points and keeps the spikes in the points’ max', async () => {
    const res = await get(`/api/v1/research/${researchId}/history?points=100&thermo_ids=1,2&thermo_ids=3`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      research_id: researchId,
      from: 0,
      to: 9999,
      last_time: 9999,
      frames: 10_000,
      thermo_ids: [1, 2, 3],
    });
    expect(res.body.time.length).toBeLessThanOrEqual(100);
    expect(res.body.time.length).toBeGreaterThanOrEqual(50);
    // From the 1-minute rollups (the coarsest with ≥ 100 buckets in 10 000 s), two to a point.
    expect(res.body.bucket_seconds).toBe(120);
    expect(res.body.series.map((s: Series) => s.key)).toEqual([
      'radiance',
      'pressure',
      'pk',
      'thermo:1',
      'thermo:2',
      'thermo:3',
      'category:Tmax:max',
      'category:Tmax:mean',
      'category:Tśr i Tmax:max',
      'category:Tśr i Tmax:mean',
    ]);
    for (const s of res.body.series as Series[])
      expect([s.min.length, s.max.length, s.mean.length]).toEqual([
        res.body.time.length,
        res.body.time.length,
        res.body.time.length,
      ]);

    const pk = seriesOf(res.body, 'pk');
    expect(Math.max(...(pk.max as number[]))).toBe(2500);
    const spikeAt = pk.max.indexOf(2500);
    expect(pk.min[spikeAt]).toBeLessThan(600);
    expect(res.body.time[spikeAt]).toBeLessThanOrEqual(5001);
    expect(Math.max(...(seriesOf(res.body, 'thermo:2').max as number[]))).toBe(900);
    // The category's maximum over thermocouples 1 and 2 carries the spike too; its mean carries half of it.
    expect(Math.max(...(seriesOf(res.body, 'category:Tśr i Tmax:max').max as number[]))).toBe(900);
    const catMean = Math.max(...(seriesOf(res.body, 'category:Tśr i Tmax:mean').max as number[]));
    expect(catMean).toBeCloseTo((20 + 7.777 + 900) / 2, 1);
    // Thermocouple 3 has a reading every other second only: its points are never empty at this width.
    expect(seriesOf(res.body, 'thermo:3').min.every((v) => v === 30)).toBe(true);
  });

  it('returns every frame as its own point when they fit, and a range when asked', async () => {
    const res = await get(`/api/v1/research/${researchId}/history?from=100&to=199.5&points=500&thermo_ids=3`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ from: 100, to: 199.5, frames: 100, bucket_seconds: 0, last_time: 9999 });
    expect(res.body.time).toEqual(Array.from({ length: 100 }, (_, i) => 100 + i));
    const pk = seriesOf(res.body, 'pk');
    expect(pk.min).toEqual(pk.max);
    expect(pk.min[0]).toBe(501);
    expect(seriesOf(res.body, 'thermo:3').max.slice(0, 3)).toEqual([null, 30, null]);
  });

  it('sends a thermocouple’s own series only when asked for, and the same values whether read from rollups or frames', async () => {
    const res = await get(`/api/v1/research/${researchId}/history?points=100&thermo_ids=2`);
    expect(res.body.series.map((s: Series) => s.key)).toEqual([
      'radiance',
      'pressure',
      'pk',
      'thermo:2',
      'category:Tmax:max',
      'category:Tmax:mean',
      'category:Tśr i Tmax:max',
      'category:Tśr i Tmax:mean',
    ]);
    const plain = await get(`/api/v1/research/${researchId}/history?points=100`);
    expect(plain.body.series.map((s: Series) => s.key)).not.toContain('thermo:2');
    expect(plain.body.thermo_ids).toEqual([1, 2, 3]);
    // 7765–7859 s: the 10-second rollups 777…785 grouped 3 to a point, and the frames of 7765–7769 (half a bucket) read.
    const [raw, rolled] = await Promise.all([
      get(`/api/v1/research/${researchId}/history?from=7765&to=7859&points=1000&thermo_ids=2`),
      get(`/api/v1/research/${researchId}/history?from=7765&to=7859&points=5&thermo_ids=2`),
    ]);
    expect(raw.body.bucket_seconds).toBe(0);
    expect(rolled.body.bucket_seconds).toBe(30);
    expect(rolled.body).toMatchObject({ frames: 95, time: [7765, 7770, 7800, 7830] });
    // Each point is the min, max and mean of the frames of its 30-second group.
    for (const key of ['pk', 'thermo:2', 'category:Tśr i Tmax:max', 'category:Tśr i Tmax:mean']) {
      const frames = seriesOf(raw.body, key).max;
      const groups = (rolled.body.time as number[]).map(
        (t, i, all) =>
          frames.filter(
            (_, j) => raw.body.time[j] >= t && (i === all.length - 1 || raw.body.time[j] < all[i + 1]!),
          ) as number[],
      );
      const b = seriesOf(rolled.body, key);
      expect(b.min).toEqual(groups.map((g) => Math.min(...g)));
      expect(b.max).toEqual(groups.map((g) => Math.max(...g)));
      b.mean.forEach((m, i) => expect(m).toBeCloseTo(groups[i]!.reduce((x, y) => x + y, 0) / groups[i]!.length, 2));
    }
    expect(seriesOf(rolled.body, 'thermo:2').max[1]).toBe(900);
  });

  it('answers an empty history for a research without frames', async () => {
    const empty = await insertResearch(api.db.url);
    const res = await get(`/api/v1/research/${empty}/history`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ last_time: null, frames: 0, time: [], series: [] });
  });

  it('is for staff and for viewers of this research only, and validates its query', async () => {
    const code = await insertClient(api.dataSource, researchId);
    const other = await insertResearch(api.db.url);
    const otherCode = await insertClient(api.dataSource, other);
    expect((await api.http.get(`/api/v1/research/${researchId}/history`)).status).toBe(401);
    expect(
      (await get(`/api/v1/research/${researchId}/history?points=10`, viewerTokenFor(api, code, researchId))).status,
    ).toBe(200);
    expect(
      (await get(`/api/v1/research/${researchId}/history.csv?to=10`, viewerTokenFor(api, code, researchId))).status,
    ).toBe(200);
    const foreign = await get(`/api/v1/research/${researchId}/history`, viewerTokenFor(api, otherCode, other));
    expect(foreign.status).toBe(403);
    expect(
      (await get(`/api/v1/research/${researchId}/history.csv`, viewerTokenFor(api, otherCode, other))).status,
    ).toBe(403);
    expect((await get(`/api/v1/research/${randomUUID()}/history`)).body).toEqual({ detail: 'Research not found' });
    const bad = await get(`/api/v1/research/${researchId}/history?points=1&from=-3601`);
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: { loc: string[] }) => d.loc.join('.')).sort()).toEqual([
      'query.from',
      'query.points',
    ]);
    expect((await get(`/api/v1/research/${researchId}/history?from=10&to=5`)).status).toBe(422);
    expect((await get(`/api/v1/research/${researchId}/history?points=abc`)).status).toBe(422);
    const ids = await get(`/api/v1/research/${researchId}/history?thermo_ids=1,x`);
    expect(ids.status).toBe(422);
    expect(new Set(ids.body.detail.map((d: { loc: string[] }) => d.loc.join('.')))).toEqual(
      new Set(['query.thermo_ids']),
    );
  });

  it('exports the frames as CSV for Excel: ";" and decimal comma by default, "," and decimal point on request', async () => {
    const res = await get(`/api/v1/research/${researchId}/history.csv`)
      .buffer(true)
      .parse((r, done) => {
        let text = '';
        r.setEncoding('utf8');
        r.on('data', (chunk: string) => (text += chunk));
        r.on('end', () => done(null, text));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="Sciana-EI-60-laczona-[0-9a-f]{8}\.csv"; filename\*=UTF-8''%C5%9Aciana%20EI%2060%20%C5%82%C4%85czona\.csv$/,
    );
    const text = res.body as string;
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text.slice(1).split('\r\n');
    const header = lines[0]!.split(';');
    expect(header.slice(0, 10)).toEqual([
      'Czas [s]',
      'Czas [min]',
      'Czas od zapłonu',
      'Data i godzina (Europe/Warsaw)',
      'Promieniowanie [kW/m²]',
      'Ciśnienie [Pa]',
      'Temperatura pieca [°C]',
      'T1 – Tśr i Tmax [°C]',
      'T2 – Tśr i Tmax [°C]',
      'T3 – Tmax [°C]',
    ]);
    expect(header.slice(-4)).toEqual(['Krzywa normowa [°C]', 'd_e [%]', 'Kanały poza zakresem', 'Obserwacje']);
    expect(lines).toHaveLength(10_002); // header, 10 000 frames, the empty string after the last CRLF
    expect(lines[10_001]).toBe('');
    const row = lines[2]!.split(';');
    expect(row.slice(0, 3)).toEqual(['1', '0,0167', '00:00:01']);
    expect(row[3]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(row.slice(4, 10)).toEqual(['1,5', '17', '500,01', '20,001', '21', '30']);
    expect(row.slice(-2)).toEqual(['', '']);
    expect(lines[1]!.split(';').slice(7, 10)).toEqual(['20', '21', '']);

    const point = await get(`/api/v1/research/${researchId}/history.csv?decimal=point&from=1&to=2`);
    const pointLines = point.text.slice(1).split('\r\n');
    expect(pointLines).toHaveLength(4);
    expect(pointLines[1]).toMatch(/^1,0\.0167,00:00:01,[^,]+,1\.5,17,500\.01,20\.001,21,30,/);
    expect(pointLines[2]).toMatch(/^2,0\.0333,00:00:02,[^,]+,1\.5,17,500\.02,20\.002,21,,/);
    expect((await get(`/api/v1/research/${researchId}/history.csv?decimal=semicolon`)).status).toBe(422);
  });
});

describe('mid-test join: history up to last_time, then the live tail, no gap and no duplicate', () => {
  let api: TestApi;
  let broker: TestBroker;
  let ingest: RunningIngest;
  let clientId = '';
  const viewers: TestViewer[] = [];

  beforeAll(async () => {
    [api, broker] = await Promise.all([startTestApi(), startTestBroker()]);
  });
  afterAll(async () => {
    for (const viewer of viewers) await viewer.close();
    await ingest?.stop();
    if (clientId) await dropSession(broker.url, clientId).catch(() => undefined);
    await api?.close();
    await broker?.stop();
  });

  it('gives viewers who join at different moments of a running test every frame exactly once', async () => {
    const researchId = await insertResearch(api.db.url);
    const config = ingestConfig(api.db.url, broker);
    clientId = config.mqttClientId;
    ingest = await startTestIngest(config, api.bus, [researchId]);
    const staff = await login(api, SUPERUSER.email, SUPERUSER.password);

    // The simulator as a lab runs it: 10 frames per real second for 30 s of test time.
    const simulator = startSimulator({ url: broker.url, researchId, channels: 8, rate: 1, speed: 10, duration: 29 });
    const joins: { viewer: TestViewer; history: number[]; lastTime: number | null }[] = [];
    for (let i = 0; i < 5; i++) {
      await waitFor(`frame ${5 * (i + 1)} published`, () => simulator.published > 5 * (i + 1));
      // As the dashboard does it: the socket first (the live tail starts), then the history.
      const viewer = await connectViewer(streamUrl(api, researchId, { token: staff }));
      viewers.push(viewer);
      const res = await api.http.get(`/api/v1/research/${researchId}/history?points=10000`).set(auth(staff));
      expect(res.status).toBe(200);
      joins.push({ viewer, history: res.body.time, lastTime: res.body.last_time });
    }
    await simulator.done;
    await simulator.stop();
    const all = Array.from({ length: 30 }, (_, i) => i);
    await waitFor('every viewer has the last frame', () => joins.every((j) => j.viewer.times.includes(29)));

    for (const { viewer, history, lastTime } of joins) {
      // The dashboard's rule: live frames at or before last_time are already in the history.
      const merged = [...history, ...viewer.times.filter((t) => lastTime === null || t > lastTime)];
      expect({ lastTime, merged }).toEqual({ lastTime, merged: all });
    }
    console.log(
      `mid-test joins at last_time ${joins.map((j) => j.lastTime).join(', ')}: each got all 30 frames once (history + live tail)`,
    );
  });
});
