import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { login, SUPERUSER } from '@furnace/testing';
import { ReportRenderer } from '../src/report/report-renderer';
import { addClient, createResearch, uploadConfig, viewerToken } from './factories';
import { auth, signUpUser, startTestApi, type TestApi } from './harness';
import { pdfPages } from './pdf';

/** ISO 834, written out here so that the test does not lean on the code it checks. */
const iso834 = (t: number) => 20 + 345 * Math.log10((8 * t) / 60 + 1);

/** Reads a response body as bytes whatever its type. */
function binary(res: Response, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

describe('GET /research/{id}/report.pdf', () => {
  let api: TestApi;
  let staff: string;
  let researchId: string;
  let code: string;
  let viewer: string;
  const NAME = 'Drzwi dwuskrzydłowe — próba żółć ąęśźćń';
  const IGNITION = Date.parse('2026-03-01T08:07:00Z');

  const get = (path: string, token?: string) => {
    const req = api.http
      .get(path)
      .buffer(true)
      .parse(binary as never);
    return token ? req.set(auth(token)) : req;
  };

  beforeAll(async () => {
    api = await startTestApi({ BRAND_NAME: 'Laboratorium Badań Ogniowych' });
    staff = await login(api, SUPERUSER.email, SUPERUSER.password);
    researchId = (
      await createResearch(api, staff, {
        name: NAME,
        start_at: '2026-03-01T08:00:00Z',
        end_at: '2026-03-01T09:30:00Z',
        is_pressure: true,
      })
    ).id;
    const profile = {
      standard: 'EN_1634_1',
      planned_duration_min: 60,
      pressure_target_pa: 20,
      pressure_tolerance_pa: 3,
    };
    expect((await api.http.put(`/api/v1/research/${researchId}`).set(auth(staff)).send(profile)).status).toBe(200);
    code = (await addClient(api, staff, researchId, 'client@example.com')).id;
    viewer = await viewerToken(api, researchId, code);
    // T1, T2: "Tśr i Tmax"; T3: "Tmax ościeżnicy".
    expect((await uploadConfig(api, staff, researchId)).status).toBe(200);
    const frames: { time: number; pk: number; tc: (number | null)[]; faults: number[] | null; p: number; r: number }[] =
      [];
    for (let t = -60; t < 0; t += 10) frames.push({ time: t, pk: 20, tc: [20, 21, 20.5], faults: null, p: 0, r: 0 });
    for (let t = 0; t <= 3600; t += 10) {
      const broken = t >= 1800; // T3 breaks at 30:00
      frames.push({
        time: t,
        pk: 0.95 * iso834(t),
        tc: [20 + t / 20, 21 + t / 18, broken ? null : 20.5],
        faults: broken ? [3] : null,
        p: 19 + (t % 60) / 30,
        r: t / 400,
      });
    }
    await api.dataSource.query(
      `INSERT INTO reading (research_id, "time", ts, daq_ts, pk, pressure, radiance, thermocouples, faults)
       SELECT $1, f.time, r.start_at + f.time * INTERVAL '1 second', to_timestamp($2 / 1000.0) + f.time * INTERVAL '1 second', f.pk, f.p, f.r,
              (f.tc)::real[], (f.faults)::smallint[]
       FROM research r, jsonb_to_recordset($3::jsonb) AS f(time float8, pk real, p real, r real, tc text, faults text) WHERE r.id = $1`,
      [
        researchId,
        IGNITION,
        JSON.stringify(
          frames.map((f) => ({
            ...f,
            tc: `{${f.tc.map((v) => (v === null ? 'NULL' : v)).join(',')}}`,
            faults: f.faults ? `{${f.faults.join(',')}}` : null,
          })),
        ),
      ],
    );
    const observe = (body: object) =>
      api.http.post(`/api/v1/research/${researchId}/observations`).set(auth(staff)).send(body);
    expect((await observe({ time: 1200, kind: 'note', note: 'Pęknięcie szyby w skrzydle' })).status).toBe(200);
    // After I has failed (T1's mean at 46:50): a gap gauge still ends E, a cotton pad would not (EN 1363-1 §11.2).
    expect((await observe({ time: 3000, kind: 'gap_6mm' })).status).toBe(200);
    const excluded = await api.http
      .post(`/api/v1/research/${researchId}/exclusions`)
      .set(auth(staff))
      .send({ thermo_id: 2, from_time: 600, reason: 'odkleiła się od próbki' });
    expect(excluded.status).toBe(200);
  });
  afterAll(() => api?.close());

  async function report(lang?: string): Promise<{ res: Response; pages: string[]; text: string }> {
    const res = await get(`/api/v1/research/${researchId}/report.pdf${lang ? `?lang=${lang}` : ''}`, staff);
    expect(res.status).toBe(200);
    const pages = await pdfPages(res.body as Buffer);
    return { res, pages, text: pages.join('\n') };
  }

  it('gives staff the Polish report: the test, T0, the class, the observations, the excluded and failed thermocouples, "Strona n z N"', async () => {
    const criteria = (await api.http.get(`/api/v1/research/${researchId}/criteria`).set(auth(staff))).body;
    const { res, pages, text } = await report();
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="raport-Drzwi-dwuskrzydlowe-proba-zolc-aeszcn-[0-9a-f]{8}\.pdf"/,
    );
    expect((res.body as Buffer).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    expect(pages[0]).toContain('Raport z badania ogniowego');
    expect(pages[0]).toContain(NAME);
    expect(pages[0]).toContain('Laboratorium Badań Ogniowych');
    // Ignition from the DAQ's clock in Warsaw time (08:07 UTC = 09:07 CET); the end at 60:00.
    expect(pages[0]).toContain('Zapłon (czas 0) 01.03.2026, 09:07:00');
    expect(pages[0]).toContain('Koniec badania 01.03.2026, 10:07:00 (01:00:00)');
    expect(pages[0]).toContain('EN 1634-1 — drzwi lub zamknięcie');
    expect(pages[0]).toContain('Krzywa standardowa ISO 834');
    // T0: the mean of T1 and T2 over the minute before ignition, (20 + 21) / 2.
    expect(criteria.t0).toBeCloseTo(20.5, 6);
    expect(pages[0]).toContain('20.5 °C (średnia z 60 s przed zapłonem)');
    expect(pages[0]).toContain('10.0 s (361 odczytów)');
    expect(pages[0]).toContain('60 min');
    // The class of the criteria route, in the report: E at the gap gauge (50:00).
    expect(criteria.classification).toMatch(/^E 45, EI2 /);
    expect(pages[0]).toContain(criteria.classification);
    expect(text).toContain('E (szczelność) 00:50:00 50 min przekroczone');
    expect(text).toContain('Zgodność pieca d_e −5.00 % (tolerancja ±2.5 %, poza tolerancją)');

    expect(text).toContain('Szczelinomierz 6 mm');
    expect(text).toContain('00:20:00 Notatka Pęknięcie szyby w skrzydle');
    expect(text).toContain('T2 00:10:00 odkleiła się od próbki');
    expect(text).toContain('T3 awaria kanału: od 00:30:00 do 01:00:00 (181 odczytów)');
    expect(text).toContain('Rozmieszczenie termopar');

    expect(pages.length).toBeGreaterThanOrEqual(3);
    pages.forEach((page, i) => expect(page).toContain(`Strona ${i + 1} z ${pages.length}`));
    expect(pages[0]).toMatch(/Wygenerowano \d\d\.\d\d\.\d{4}, \d\d:\d\d:\d\d/);
  });

  it('writes the same report in English with ?lang=en', async () => {
    // An alarm raised during the test, acknowledged: in the report's events (docs/behaviour.md §17).
    await api.dataSource.query(
      `INSERT INTO alarm (research_id, kind, subject, details, raised_at, acknowledged_at, acknowledged_by)
       VALUES ($1, 'thermocouple', '3', '{}', '2026-03-01T08:37:00Z', '2026-03-01T08:38:00Z', 'lab@example.com')`,
      [researchId],
    );
    const { res, pages, text } = await report('en');
    expect(text).toContain('Alarms');
    expect(text).toMatch(/01\.03\.2026, 09:37:00 Thermocouple faulted or suspect 3 lab@example\.com/);
    expect(res.headers['content-disposition']).toMatch(/filename="report-Drzwi-/);
    expect(pages[0]).toContain('Fire test report');
    expect(pages[0]).toContain('EN 1634-1 — door or shutter');
    expect(pages[0]).toContain('20.5 °C (mean of the 60 s before ignition)');
    expect(text).toContain('6 mm gap gauge');
    expect(text).toContain('T3 channel fault: from 00:30:00 to 01:00:00 (181 readings)');
    pages.forEach((page, i) => expect(page).toContain(`Page ${i + 1} of ${pages.length}`));
  });

  it('reports a test before its ignition: no ignition date, its newest reading, T0 so far, no chart since time 0', async () => {
    const early = (
      await createResearch(api, staff, {
        name: 'Przed zapłonem',
        start_at: '2026-03-02T08:00:00Z',
        end_at: '2099-03-02T09:30:00Z',
      })
    ).id;
    expect((await uploadConfig(api, staff, early)).status).toBe(200);
    await api.dataSource.query(
      `INSERT INTO reading (research_id, "time", ts, pk, thermocouples) SELECT $1, t, now() + t * INTERVAL '1 second', 20, '{19,20,21}'::real[] FROM generate_series(-30, -10, 10) AS t`,
      [early],
    );
    const res = await get(`/api/v1/research/${early}/report.pdf`, staff);
    expect(res.status).toBe(200);
    const [first, second] = await pdfPages(res.body as Buffer);
    // Not the planned start (09:00 in the schedule row) presented as the ignition.
    expect(first).toContain('Zapłon (czas 0) jeszcze nie nastąpił');
    expect(first).toContain('Ostatni odczyt −00:00:10');
    expect(first).not.toContain('Koniec badania');
    // T0 so far: the mean of T1 and T2 ("Tśr i Tmax") over the readings before ignition, (19 + 20) / 2.
    expect(first).toContain('T0 19.5 °C (średnia z 60 s przed zapłonem)');
    expect(first).toContain('badanie trwa: stan na −00:00:10');
    expect(second).toContain('Brak odczytów od zapłonu (czas 0)');
  });

  it('refuses anyone but staff, an unknown research and a bad id or language, with a clear error', async () => {
    const path = `/api/v1/research/${researchId}/report.pdf`;
    expect((await get(path)).status).toBe(401);
    // The client's viewer token reads the research's history, not the lab's report.
    expect((await get(path, viewer)).status).toBe(403);
    // The access code itself is no bearer token, nor a query parameter that opens the report.
    expect((await get(path, code)).status).toBe(401);
    expect((await get(`${path}?code=${code}`)).status).toBe(401);
    expect((await get(`/api/v1/research/${randomUUID()}/report.pdf`, staff)).status).toBe(404);
    const badId = await api.http.get('/api/v1/research/not-a-uuid/report.pdf').set(auth(staff));
    expect(badId.status).toBe(422);
    expect(badId.body.detail).toEqual([
      expect.objectContaining({ loc: ['path', 'id'], msg: 'value is not a valid UUID' }),
    ]);
    const badLang = await api.http.get(`${path}?lang=de`).set(auth(staff));
    expect(badLang.status).toBe(422);
    expect(badLang.body.detail).toEqual([
      expect.objectContaining({ loc: ['query', 'lang'], msg: 'lang must be one of pl, en' }),
    ]);
    // Any member of staff may download it, not only the one who created the research.
    const other = await signUpUser(api);
    expect((await get(path, other.token)).status).toBe(200);
  });

  it('lays the report out in a worker thread; a render that fails, or a worker that dies, is a 500 and the next report is made', async () => {
    const renderer = api.app.get(ReportRenderer);
    const render = renderer.render.bind(renderer);
    const threads: number[] = [];
    const spy = jest.spyOn(renderer, 'render').mockImplementation(async (...args) => {
      const result = await render(...args);
      threads.push(result.threadId);
      return result;
    });
    try {
      expect((await report()).pages.length).toBeGreaterThanOrEqual(3);
      expect(threads).toEqual([expect.any(Number)]);
      expect(threads[0]).not.toBe(0);

      // The layout throws (data it cannot read): the worker's error, a 500; the worker stays.
      spy.mockImplementationOnce((data, signal) => render({ ...data, criteria: null as never }, signal));
      const failed = await get(`/api/v1/research/${researchId}/report.pdf`, staff);
      expect(failed.status).toBe(500);
      await report();
      expect(threads[1]).toBe(threads[0]);

      // The worker dies while rendering: a 500; the next report is made by a new worker.
      spy.mockImplementationOnce((data, signal) => {
        const result = render(data, signal);
        void (renderer as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
        return result;
      });
      expect((await get(`/api/v1/research/${researchId}/report.pdf`, staff)).status).toBe(500);
      expect((await report('en')).text).toContain('Fire test report');
      expect(threads[2]).not.toBe(threads[0]);
    } finally {
      spy.mockRestore();
    }
  });
});
