// "No caller can take the server hostage", the heavy requests: the history exports (CSV, XLSX), the archive and the
// PDF report run at most HEAVY_WORK_CONCURRENCY at once per instance and one at a time per caller (429
// with a detail and Retry-After at once above either), and a client that goes away stops its export:
// the page reads end and the slot is free again.
import { get as httpGet, type ClientRequest, type IncomingMessage } from 'node:http';
import { insertMarkers, login, SUPERUSER, waitFor } from '@furnace/testing';
import { HeavyWork } from '../../src/core/heavy-work';
import { ExportRepository } from '../../src/history/export.repository';
import { addClient, createResearch } from '../factories';
import { auth, startTestApi, type TestApi } from '../harness';
import { metric, viewerTokenFor } from '../live-support';

/** A long test: 20 000 frames of 48 thermocouples, 200 pages of an export. */
const FRAMES = 20_000;
const CHANNELS = 48;
const EXPORT_PAGES = FRAMES / 100;

describe('security: exports and reports cannot take the server hostage', () => {
  let api: TestApi;
  let admin: string;
  let researchId: string;
  /** The same frames without any marker: no category, so an export's T0 scan reads every frame before the first row. */
  let unmarkedId: string;
  /** Two clients of the research (viewer tokens of two e-mail records). */
  let clientA: string;
  let clientB: string;
  let heavy: HeavyWork;
  const open: ClientRequest[] = [];

  beforeAll(async () => {
    api = await startTestApi({ HEAVY_WORK_CONCURRENCY: '2' });
    admin = await login(api, SUPERUSER.email, SUPERUSER.password);
    researchId = (await createResearch(api, admin, { name: 'Long test' })).id;
    unmarkedId = (await createResearch(api, admin, { name: 'Long test without markers' })).id;
    clientA = viewerTokenFor(api, (await addClient(api, admin, researchId, 'a@example.com')).id, researchId);
    clientB = viewerTokenFor(api, (await addClient(api, admin, researchId, 'b@example.com')).id, researchId);
    for (const id of [researchId, unmarkedId]) {
      await api.dataSource.query(
        `INSERT INTO reading (research_id, "time", ts, pk, radiance, pressure, thermocouples)
         SELECT r.id, g, r.start_at + g * INTERVAL '1 second', 20 + g * 0.02, 1.5, 12,
                (SELECT array_agg((20 + g * 0.01 + c)::real ORDER BY c) FROM generate_series(1, $3::int) c)
         FROM research r, generate_series(0, $2::int - 1) g WHERE r.id = $1`,
        [id, FRAMES, CHANNELS],
      );
    }
    // With thermocouples of a category T0 is fixed on the first frame: an export of a short range reads a page or two.
    await insertMarkers(api.dataSource, researchId, { 1: 'Tśr i Tmax', 2: 'Tśr i Tmax', 3: 'Tmax' });
    heavy = api.app.get(HeavyWork);
  });
  afterEach(async () => {
    for (const req of open.splice(0)) req.destroy();
    await waitFor('every slot free', () => heavy.running === 0);
  });
  afterAll(() => api?.close());

  /**
   * A GET of the research's `file`. `read` false: its body is not read, so the server stays blocked on
   * the socket and the request keeps its slot. `response` resolves once the response has begun.
   */
  function start(
    file: string,
    token: string,
    read = false,
    research = researchId,
  ): { req: ClientRequest; response: Promise<IncomingMessage> } {
    let req!: ClientRequest;
    const response = new Promise<IncomingMessage>((resolve, reject) => {
      req = httpGet(`${api.url}/api/v1/research/${research}/${file}`, { headers: auth(token) }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`${file}: ${res.statusCode}`));
        if (read) res.resume();
        else res.pause();
        resolve(res);
      });
    });
    response.catch(() => undefined);
    req.on('error', () => undefined);
    open.push(req);
    return { req, response };
  }

  const download = (file: string, token: string) =>
    api.http.get(`/api/v1/research/${researchId}/${file}`).set(auth(token));

  function expectRefused(
    res: { status: number; headers: Record<string, string>; body: { detail?: unknown } },
    detail: RegExp,
  ) {
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(res.body.detail).toMatch(detail);
  }

  it('one export at a time per caller: a second one (any format) is refused at once; another caller is served', async () => {
    await start('history.csv', clientA).response;
    expectRefused(await download('history.xlsx', clientA), /one at a time/);
    expectRefused(await download('history.csv?decimal=point', clientA), /one at a time/);
    // The other client, and staff, each have their own turn (two slots: this one and A's).
    const b = await download('history.csv?to=10', clientB);
    expect(b.status).toBe(200);
    expect(b.text.split('\r\n').length).toBeGreaterThan(10);
  });

  it('at most HEAVY_WORK_CONCURRENCY exports and reports per instance: the next caller is refused at once, and served once a slot is free', async () => {
    const a = start('history.csv', clientA);
    await Promise.all([a.response, start('history.csv', clientB).response]);
    expect(heavy.running).toBe(2);
    expectRefused(await download('history.xlsx?to=10', admin), /as many exports and reports as it makes at once \(2\)/);
    // The report goes through the same limiter.
    expectRefused(await download('report.pdf', admin), /at once \(2\)/);
    expect(await metric('furnace_heavy_work_refused_total', { reason: 'instance' })).toBeGreaterThanOrEqual(2);
    a.req.destroy();
    await waitFor('a slot free', () => heavy.running === 1);
    expect((await download('history.xlsx?to=10', admin)).status).toBe(200);
  });

  it('the report counts against its caller too', async () => {
    await start('history.csv', admin).response;
    expectRefused(await download('report.pdf', admin), /one at a time/);
  });

  it('the archive counts against its caller, and stops when its client goes away', async () => {
    const csv = start('history.csv', admin);
    await csv.response;
    expectRefused(await download('archive.zip', admin), /one at a time/);
    csv.req.destroy();
    await waitFor('the slot free', () => heavy.running === 0);

    const abandoned = await metric('furnace_heavy_work_abandoned_total', { kind: 'archive' });
    // Not read: the zip of 20 000 frames fills the socket and the writer waits for it.
    const { req, response } = start('archive.zip', admin);
    await response;
    req.destroy();
    await waitFor('the slot free again', () => heavy.running === 0, 5_000);
    expect(await metric('furnace_heavy_work_abandoned_total', { kind: 'archive' })).toBe(abandoned + 1);
  });

  it.each(['xlsx', 'csv'])(
    '%s: a client that goes away stops the export: its page reads end and its slot is free again',
    async (format) => {
      const pages = jest.spyOn(api.app.get(ExportRepository), 'frames');
      try {
        const abandoned = await metric('furnace_heavy_work_abandoned_total', { kind: format });
        const { req } = start(`history.${format}`, clientA, true);
        await waitFor('the export under way', () => pages.mock.calls.length >= 5);
        req.destroy();
        await waitFor('the slot free again', () => heavy.running === 0, 5_000);
        const read = pages.mock.calls.length;
        await new Promise((resolve) => setTimeout(resolve, 500));
        // No page read after the work let go of its slot, and far from every page of the test.
        expect(pages.mock.calls.length).toBe(read);
        expect(read).toBeLessThan(EXPORT_PAGES / 2);
        expect(await metric('furnace_heavy_work_abandoned_total', { kind: format })).toBe(abandoned + 1);
        // The same caller starts another at once.
        expect((await download(`history.${format}?to=10`, clientA)).status).toBe(200);
      } finally {
        pages.mockRestore();
      }
    },
  );

  it('an export still being prepared (the T0 scan of a test without categories) stops as well', async () => {
    const pages = jest.spyOn(api.app.get(ExportRepository), 'frames');
    try {
      const unmarkedClient = viewerTokenFor(
        api,
        (await addClient(api, admin, unmarkedId, 'c@example.com')).id,
        unmarkedId,
      );
      const { req, response } = start('history.xlsx', unmarkedClient, true, unmarkedId);
      await waitFor('the T0 scan under way', () => pages.mock.calls.length >= 5);
      let begun = false;
      void response.then(() => (begun = true));
      req.destroy();
      await waitFor('the slot free again', () => heavy.running === 0, 5_000);
      const read = pages.mock.calls.length;
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(begun).toBe(false);
      expect(pages.mock.calls.length).toBe(read);
      expect(read).toBeLessThan(EXPORT_PAGES / 2);
    } finally {
      pages.mockRestore();
    }
  });
});
