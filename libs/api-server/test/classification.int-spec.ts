import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { type CriteriaView, formatTestTime } from '@furnace/contracts';
import { texts } from '@furnace/text';
import { login, NEW_RESEARCH_REPORT, SUPERUSER } from '@furnace/testing';
import { addClient, createResearch, uploadConfig, viewerToken } from './factories';
import { auth, startTestApi, type TestApi } from './harness';
import { pdfPages } from './pdf';

/*
 * The test report's fields (EN 1363-1 §12) on a research, the report that prints them, and the
 * classification report (GET /research/{id}/classification.pdf) that rests on it: their class and each
 * criterion's time and minutes are GET …/criteria's, never other numbers; both PDFs are staff's.
 */

/** ISO 834, written out here so that the test does not lean on the code it checks. */
const iso834 = (t: number) => 20 + 345 * Math.log10((8 * t) / 60 + 1);

/** Reads a response body as bytes whatever its type. */
function binary(res: Response, done: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A criterion's row as a PDF prints it: its time and its completed minutes (or "not measured"). */
function criterionRow(text: string, label: string): { time: string; minutes: string } {
  const row = new RegExp(`${escape(label)} (\\S+) (\\d+ min|nie mierzono|not measured)`).exec(text);
  if (!row) throw new Error(`no row "${label}" in: ${text.slice(0, 2000)}`);
  return { time: row[1]!, minutes: row[2]! };
}

/** What the kept criteria say of a criterion, as the PDFs must print it. */
function expectedRow(
  criteria: CriteriaView,
  key: 'E' | 'I' | 'W',
  lang: 'pl' | 'en',
): { time: string; minutes: string } {
  const r = criteria.criteria[key];
  const shownTime = r.measured || r.deemed ? formatTestTime(r.time) : '---';
  return {
    time: shownTime,
    minutes: r.minutes === null ? (lang === 'pl' ? 'nie mierzono' : 'not measured') : `${r.minutes} min`,
  };
}

const REPORT = {
  sponsor: '  Budimex-Test Sp. z o.o., ul. Długa 5, 00-001 Warszawa  ',
  manufacturer: 'Płyty Gips S.A.',
  specimen_description: 'Ściana z płyt gipsowo-kartonowych 2 × 12,5 mm na profilach CW 75, wełna mineralna 50 mm.',
  conditioning: '28 dni w 23 °C i 50 % RH',
  supporting_construction: 'Rama stalowa pieca, mocowanie kołkami co 600 mm',
  exposed_side: 'strona A',
  ambient_temperature_c: 19.5,
  pressure_height_mm: 500,
  end_reason: 'utrata szczelności: szczelinomierz 6 mm',
  deviations: '',
  report_number: 'LAB/2026/017',
  report_date: '2026-03-14',
};

describe('the test report fields and the classification report', () => {
  let api: TestApi;
  let staff: string;
  let viewer: string;
  let researchId: string;
  const IGNITION = Date.parse('2026-03-01T08:07:00Z');

  const get = (path: string, token?: string) => {
    const req = api.http
      .get(path)
      .buffer(true)
      .parse(binary as never);
    return token ? req.set(auth(token)) : req;
  };
  const update = (body: object, id = researchId) => api.http.put(`/api/v1/research/${id}`).set(auth(staff)).send(body);

  async function pdf(
    name: 'report.pdf' | 'classification.pdf',
    lang: 'pl' | 'en',
  ): Promise<{ res: Response; pages: string[]; text: string }> {
    const res = await get(`/api/v1/research/${researchId}/${name}?lang=${lang}`, staff);
    expect(res.status).toBe(200);
    const pages = await pdfPages(res.body as Buffer);
    return { res, pages, text: pages.join('\n').replace(/\s+/g, ' ') };
  }

  beforeAll(async () => {
    api = await startTestApi({ BRAND_NAME: 'Laboratorium Badań Ogniowych' });
    staff = await login(api, SUPERUSER.email, SUPERUSER.password);
    // A wall without a radiometer: W is deemed met while I holds.
    researchId = (
      await createResearch(api, staff, {
        name: 'Ściana działowa W-3',
        start_at: '2026-03-01T08:00:00Z',
        end_at: '2026-03-01T09:30:00Z',
        is_radiance: false,
        is_pressure: true,
      })
    ).id;
    expect((await update({ standard: 'EN_1364_1', planned_duration_min: 60, pressure_target_pa: 20 })).status).toBe(
      200,
    );
    viewer = await viewerToken(api, researchId, (await addClient(api, staff, researchId, 'client@example.com')).id);
    // T1, T2: "Tśr i Tmax"; T3: "Tmax ościeżnicy".
    expect((await uploadConfig(api, staff, researchId)).status).toBe(200);
    const frames: { time: number; pk: number; tc: string; p: number }[] = [];
    for (let t = -60; t <= 3600; t += 10)
      frames.push({
        time: t,
        pk: t < 0 ? 20 : 0.97 * iso834(t),
        tc: `{${20 + Math.max(t, 0) / 20},${21 + Math.max(t, 0) / 18},20.5}`,
        p: 19 + (t % 60) / 30,
      });
    await api.dataSource.query(
      `INSERT INTO reading (research_id, "time", ts, daq_ts, pk, pressure, thermocouples)
       SELECT $1, f.time, r.start_at + f.time * INTERVAL '1 second', to_timestamp($2 / 1000.0) + f.time * INTERVAL '1 second', f.pk, f.p, (f.tc)::real[]
       FROM research r, jsonb_to_recordset($3::jsonb) AS f(time float8, pk real, p real, tc text) WHERE r.id = $1`,
      [researchId, IGNITION, JSON.stringify(frames)],
    );
    // E at 50:00 (a gap gauge judges E after I too).
    expect(
      (
        await api.http
          .post(`/api/v1/research/${researchId}/observations`)
          .set(auth(staff))
          .send({ time: 3000, kind: 'gap_6mm' })
      ).status,
    ).toBe(200);
  });
  afterAll(() => api?.close());

  it('keeps every report field staff set (trimmed; blank is not given) and shows none of them to a client', async () => {
    const res = await update({ ...REPORT, classification_to_clients: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ...REPORT,
      sponsor: 'Budimex-Test Sp. z o.o., ul. Długa 5, 00-001 Warszawa',
      deviations: null,
      classification_to_clients: false,
    });
    // A field left out keeps its value; null clears it.
    const cleared = await update({ end_reason: null });
    expect(cleared.body).toMatchObject({ report_number: 'LAB/2026/017', end_reason: null });
    expect((await update({ end_reason: REPORT.end_reason })).body.end_reason).toBe(REPORT.end_reason);

    const asClient = await api.http.get(`/api/v1/research/${researchId}`).set(auth(viewer));
    expect(asClient.status).toBe(200);
    expect(asClient.body).toMatchObject({
      ...NEW_RESEARCH_REPORT,
      classification_to_clients: false,
      name: 'Ściana działowa W-3',
    });
    const view = await api.http.get(`/api/v1/research/${researchId}/live-view`).set(auth(viewer));
    expect(view.body.research).toMatchObject(NEW_RESEARCH_REPORT);
  });

  it('takes the fields on create too, and refuses a bad one with a message naming it', async () => {
    const created = await api.http
      .post('/api/v1/research/')
      .set(auth(staff))
      .send({
        name: 'Drzwi',
        start_at: '2026-04-01T08:00:00Z',
        end_at: '2026-04-01T10:00:00Z',
        ...REPORT,
        classification_to_clients: false,
      });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      report_number: 'LAB/2026/017',
      report_date: '2026-03-14',
      ambient_temperature_c: 19.5,
      deviations: null,
      classification_to_clients: false,
    });
    const plain = await createResearch(api, staff);
    expect((await api.http.get(`/api/v1/research/${plain.id}`).set(auth(staff))).body).toMatchObject({
      ...NEW_RESEARCH_REPORT,
      classification_to_clients: true,
    });

    const refused = async (body: object, loc: string, msg: string) => {
      const res = await update(body, created.body.id);
      expect([res.status, res.body.detail]).toEqual([422, [{ loc: ['body', loc], msg, type: expect.any(String) }]]);
    };
    await refused({ sponsor: 'x'.repeat(256) }, 'sponsor', 'sponsor must be a text of at most 255 characters');
    await refused(
      { specimen_description: 'x'.repeat(10_001) },
      'specimen_description',
      'specimen_description must be a text of at most 10000 characters',
    );
    await refused(
      { report_number: 'LAB/'.repeat(17) },
      'report_number',
      'report_number must be a text of at most 64 characters',
    );
    await refused({ manufacturer: 42 }, 'manufacturer', 'manufacturer must be a text of at most 255 characters');
    await refused(
      { report_date: '2026-02-30' },
      'report_date',
      'report_date must be a date written YYYY-MM-DD, one that exists',
    );
    await refused(
      { report_date: '14.03.2026' },
      'report_date',
      'report_date must be a date written YYYY-MM-DD, one that exists',
    );
    await refused(
      { ambient_temperature_c: 'warm' },
      'ambient_temperature_c',
      'ambient_temperature_c must be a number from -50 to 100 °C',
    );
    await refused(
      { ambient_temperature_c: 120 },
      'ambient_temperature_c',
      'ambient_temperature_c must be a number from -50 to 100 °C',
    );
    await refused(
      { pressure_height_mm: -1 },
      'pressure_height_mm',
      'pressure_height_mm must be a number from 0 to 10000 mm',
    );
    await refused(
      { classification_to_clients: null },
      'classification_to_clients',
      'classification_to_clients must be a boolean value',
    );
    // Nothing of a refused update was kept.
    expect((await api.http.get(`/api/v1/research/${created.body.id}`).set(auth(staff))).body.sponsor).toBe(
      'Budimex-Test Sp. z o.o., ul. Długa 5, 00-001 Warszawa',
    );
  });

  it('prints the fields and the drawings in the test report, with the class and minutes of the criteria', async () => {
    expect((await update({ ...REPORT, classification_to_clients: true })).status).toBe(200);
    const drawing = Buffer.from(
      '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
      'latin1',
    );
    expect(
      (
        await api.http
          .post(`/api/v1/research/${researchId}/drawings`)
          .set(auth(staff))
          .attach('file', drawing, 'rys-1 przekrój.pdf')
      ).status,
    ).toBe(200);
    const criteria = (await api.http.get(`/api/v1/research/${researchId}/criteria`).set(auth(staff)))
      .body as CriteriaView;
    expect(criteria.criteria.W).toMatchObject({ measured: false, deemed: true });

    const { text } = await pdf('report.pdf', 'pl');
    expect(text).toContain(
      'Sprawozdanie z badania (EN 1363-1 §12) Numer sprawozdania LAB/2026/017 Data sprawozdania 14.03.2026',
    );
    expect(text).toContain(
      'Zleceniodawca Budimex-Test Sp. z o.o., ul. Długa 5, 00-001 Warszawa Producent Płyty Gips S.A.',
    );
    expect(text).toContain(
      'Temperatura otoczenia na początku badania 19.5 °C Wysokość pomiaru ciśnienia w piecu 500 mm',
    );
    expect(text).toContain('Odstępstwa od metody badania nie podano');
    expect(text).toContain(`Rysunki próbki rys-1 przekrój.pdf (PDF, 1 kB)`);
    expect(text).toContain(`Klasyfikacja ${criteria.classification}`);
    for (const key of ['E', 'I', 'W'] as const)
      expect([key, criterionRow(text, texts('pl').criteria.criterion[key])]).toEqual([
        key,
        expectedRow(criteria, key, 'pl'),
      ]);
  });

  it('gives staff the classification report: the class and every criterion as GET …/criteria has them, in Polish and English', async () => {
    const criteria = (await api.http.get(`/api/v1/research/${researchId}/criteria`).set(auth(staff)))
      .body as CriteriaView;
    expect(criteria.classification).toMatch(/^E \d+, EI \d+$/);

    const pl = await pdf('classification.pdf', 'pl');
    expect(pl.res.headers['content-type']).toBe('application/pdf');
    expect(pl.res.headers['content-disposition']).toMatch(
      /^attachment; filename="klasyfikacja-Sciana-dzialowa-W-3-[0-9a-f]{8}\.pdf"/,
    );
    expect(pl.res.headers['cache-control']).toBe('no-store');
    expect(pl.text).toContain(
      'LABORATORIUM BADAŃ OGNIOWYCH Raport klasyfikacyjny Klasyfikacja ogniowa według EN 13501-2',
    );
    expect(pl.text).toContain('Element (norma badania) EN 1364-1 — ściana nienośna Norma klasyfikacyjna EN 13501-2');
    expect(pl.text).toContain('Sprawozdanie z badania LAB/2026/017 z dnia 14.03.2026');
    expect(pl.text).toContain(`Klasyfikacja ${criteria.classification} `);
    for (const key of ['E', 'I', 'W'] as const)
      expect([key, criterionRow(pl.text, texts('pl').criteria.criterion[key])]).toEqual([
        key,
        expectedRow(criteria, key, 'pl'),
      ]);
    expect(pl.text).toContain(
      'W (promieniowanie) --- ' + `${criteria.criteria.W.minutes} min nie mierzono; uznane za spełnione`,
    );
    expect(pl.text).toContain(`Ocena d_e (EN 1363-1 §5.1.2) ${criteria.deviation.conforming ? 'zgodne' : 'niezgodne'}`);
    expect(pl.text).toContain(`Ocena ciśnienia ${criteria.pressure!.conforming ? 'zgodne' : 'niezgodne'}`);
    pl.pages.forEach((page, i) => expect(page).toContain(`Strona ${i + 1} z ${pl.pages.length}`));

    const en = await pdf('classification.pdf', 'en');
    expect(en.res.headers['content-disposition']).toMatch(/filename="classification-Sciana-/);
    expect(en.text).toContain('Classification report Fire resistance classification to EN 13501-2');
    expect(en.text).toContain('Test report LAB/2026/017 of 14.03.2026');
    expect(en.text).toContain(`Classification ${criteria.classification} `);
    for (const key of ['E', 'I', 'W'] as const)
      expect([key, criterionRow(en.text, texts('en').criteria.criterion[key])]).toEqual([
        key,
        expectedRow(criteria, key, 'en'),
      ]);
  });

  it('refuses the classification report and the drawing upload to a client, and anyone but staff', async () => {
    const path = `/api/v1/research/${researchId}/classification.pdf`;
    expect((await get(path)).status).toBe(401);
    expect((await get(path, viewer)).status).toBe(403);
    const upload = api.http
      .post(`/api/v1/research/${researchId}/drawings`)
      .set(auth(viewer))
      .attach('file', Buffer.from('%PDF-1.4\n%%EOF\n'), 'rys.pdf');
    expect((await upload).status).toBe(403);
    expect((await get(`/api/v1/research/${researchId}/drawings`, viewer)).status).toBe(403);
    expect((await get(`/api/v1/research/${randomUUID()}/classification.pdf`, staff)).status).toBe(404);
    const badLang = await api.http.get(`${path}?lang=de`).set(auth(staff));
    expect([badLang.status, badLang.body.detail]).toEqual([
      422,
      [expect.objectContaining({ loc: ['query', 'lang'], msg: 'lang must be one of pl, en' })],
    ]);
  });
});
