import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { login, SUPERUSER } from '@furnace/testing';
import { addClient, configText, createResearch, SPECIMEN_PNG, uploadConfig, viewerToken } from './factories';
import { auth, startTestApi, type TestApi } from './harness';

/*
 * A fixture test for the exports, every expected number worked out here from the standards' formulas:
 * - ignition at 2030-03-31 00:59:00 UTC, the night Warsaw moves from CET (+1) to CEST (+2) at 01:00 UTC;
 * - T1–T3 'Tśr i Tmax' read 20, 21, 22 °C in the minute before ignition (T0 = 21 °C) and rise 1 K per 10 s
 *   after it; 'Ściana Ł' (channel 4) is a 'Tmax' rising 2 K per 10 s from 25 °C; channel 5 has no marker;
 * - T3 is excluded from 300 s ('odpadła'); T2 is out of range (null + fault) at 400 s;
 * - pk = ISO 834 + 50 K; a note at 305 s seen by staff only, a cotton pad at 410 s visible to clients.
 */
const IGNITION = Date.UTC(2030, 2, 31, 0, 59, 0);
const iso834 = (t: number) => (t <= 0 ? 20 : 345 * Math.log10((8 * t) / 60 + 1) + 20);
const pkAt = (t: number) => (t < 0 ? 20 : iso834(t) + 50);
const TIMES = Array.from({ length: 67 }, (_, i) => -60 + i * 10); // −60 … 600 s
const channelsAt = (t: number): (number | null)[] =>
  t < 0 ? [20, 21, 22, 25, 99] : [20 + t / 10, t === 400 ? null : 21 + t / 10, 22 + t / 10, 25 + t / 5, 99];

function text(res: { body: unknown }): string {
  return (res.body as Buffer).toString('utf8');
}
/** The workbook's bytes as exceljs reads them. */
function bytes(res: { body: unknown }): Parameters<ExcelJS.Xlsx['load']>[0] {
  const body = res.body as Buffer;
  return body.buffer.slice(body.byteOffset, body.byteOffset + body.length) as Parameters<ExcelJS.Xlsx['load']>[0];
}

describe('history exports: CSV and XLSX a lab can file', () => {
  let api: TestApi;
  let staff: string;
  let researchId: string;
  let client: string;
  let foreign: string;
  /** A GET whose body is kept as bytes (a workbook, or a CSV read as it was sent). */
  const download = (url: string, token = staff) =>
    api.http
      .get(url)
      .set(auth(token))
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });
  const get = (path: string, token = staff) => download(`/api/v1/research/${researchId}/${path}`, token);

  beforeAll(async () => {
    api = await startTestApi();
    staff = await login(api, SUPERUSER.email, SUPERUSER.password);
    researchId = (
      await createResearch(api, staff, {
        name: 'Ściana "A"; EI 60',
        start_at: new Date(IGNITION).toISOString(),
        end_at: new Date(IGNITION + 4 * 3600_000).toISOString(),
      })
    ).id;
    const other = (await createResearch(api, staff)).id;
    client = await viewerToken(api, researchId, (await addClient(api, staff, researchId, 'klient@example.com')).id);
    foreign = await viewerToken(api, other, (await addClient(api, staff, other, 'obcy@example.com')).id);
    const config = configText([
      '1;T1;Tśr i Tmax;#E53935;100;100;14;120;80;64;24',
      '2;T2;Tśr i Tmax;#E53935;200;100;14;220;80;64;24',
      '3;T3;Tśr i Tmax;#E53935;300;100;14;320;80;64;24',
      '4;Ściana Ł;Tmax;#1E88E5;400;300;14;420;280;64;24',
    ]);
    expect((await uploadConfig(api, staff, researchId, SPECIMEN_PNG, config)).status).toBe(200);
    for (const t of TIMES) {
      await api.dataSource.query(
        `INSERT INTO reading (research_id, "time", ts, daq_ts, pk, radiance, thermocouples, faults, received_at)
         SELECT $1, $2, r.start_at + $2 * INTERVAL '1 second', $3, $4, 1.5, $5, $6, now() FROM research r WHERE r.id = $1`,
        [researchId, t, new Date(IGNITION + t * 1000).toISOString(), pkAt(t), channelsAt(t), t === 400 ? [2] : null],
      );
    }
    const post = (path: string, body: object) =>
      api.http.post(`/api/v1/research/${researchId}/${path}`).set(auth(staff)).send(body);
    expect((await post('exclusions', { thermo_id: 3, from_time: 300, reason: 'odpadła' })).status).toBe(200);
    expect(
      (await post('observations', { time: 305, kind: 'note', note: 'tylko dla personelu', visible_to_clients: false }))
        .status,
    ).toBe(200);
    expect((await post('observations', { time: 410, kind: 'cotton_pad', visible_to_clients: true })).status).toBe(200);
  });
  afterAll(() => api?.close());

  /** d_e at `until` s from its definition: trapezoid areas under pk and under ISO 834 from t = 0 (pk as stored: float4). */
  function deviationAt(until: number): number {
    let area = 0;
    let areaStd = 0;
    const times = TIMES.filter((t) => t >= 0 && t <= until);
    for (let i = 1; i < times.length; i++) {
      const [a, b] = [times[i - 1]!, times[i]!];
      area += ((Math.fround(pkAt(a)) + Math.fround(pkAt(b))) / 2) * (b - a);
      areaStd += ((iso834(a) + iso834(b)) / 2) * (b - a);
    }
    return ((area - areaStd) / areaStd) * 100;
  }

  it('writes the CSV with named columns, times in minutes, hh:mm:ss and Warsaw time, and the criteria numbers per row', async () => {
    const res = await get('history.csv');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/filename="Sciana-A-EI-60-[0-9a-f]{8}\.csv"/);
    const lines = text(res).slice(1).split('\r\n');
    expect(lines[0]!.split(';')).toEqual([
      'Czas [s]',
      'Czas [min]',
      'Czas od zapłonu',
      'Data i godzina (Europe/Warsaw)',
      'Promieniowanie [kW/m²]',
      'Ciśnienie [Pa]',
      'Temperatura pieca [°C]',
      'T1 – Tśr i Tmax [°C]',
      'T2 – Tśr i Tmax [°C]',
      'T3 – Tśr i Tmax [°C]',
      'Ściana Ł – Tmax [°C]',
      'thermo_5_c',
      'Tśr i Tmax – max [°C]',
      'Tśr i Tmax – średnia [°C]',
      'Tśr i Tmax – przyrost max ponad T0 [K]',
      'Tśr i Tmax – przyrost średniej ponad T0 [K]',
      'Tmax – max [°C]',
      'Tmax – średnia [°C]',
      'Tmax – przyrost max ponad T0 [K]',
      'Tmax – przyrost średniej ponad T0 [K]',
      'Krzywa normowa [°C]',
      'd_e [%]',
      'Kanały poza zakresem',
      'Obserwacje',
    ]);
    expect(lines).toHaveLength(1 + TIMES.length + 1);
    const row = (t: number) => lines.find((l) => l.startsWith(`${t};`))!.split(';');
    const num = (cell: string) => Number(cell.replace(',', '.'));

    // Before ignition: CET, nothing to compare with the curve's rise yet; d_e has no area.
    expect(row(-60).slice(0, 4)).toEqual(['-60', '-1', '-00:01:00', '2030-03-31 01:58:00']);
    expect(row(-60)[21]).toBe('');
    // 400 s: after the change to CEST. T2 faulted, T3 excluded: the 'Tśr i Tmax' category is T1 alone.
    const at = row(400);
    expect(at.slice(0, 4)).toEqual(['400', '6,6667', '00:06:40', '2030-03-31 03:05:40']);
    expect(at.slice(7, 12)).toEqual(['60', '', '62', '105', '99']);
    expect(at.slice(12, 20).map(num)).toEqual([60, 60, 39, 39, 105, 105, 84, 84]);
    expect(num(at[20]!)).toBeCloseTo(iso834(400), 3);
    expect(num(at[21]!)).toBeCloseTo(deviationAt(400), 3);
    expect(at.slice(22)).toEqual(['2', '']);
    // At 300 s T3 no longer counts, T2 still does: mean of 50 and 51.
    expect(row(300).slice(12, 16).map(num)).toEqual([51, 50.5, 30, 29.5]);
    // Each observation on the first frame at or after it.
    expect(row(310)[23]).toBe('note');
    expect(row(410)[23]).toBe('cotton_pad');

    const point = text(await get('history.csv?decimal=point&from=400&to=400'))
      .slice(1)
      .split('\r\n');
    expect(point[1]!.split(',').slice(0, 4)).toEqual(['400', '6.6667', '00:06:40', '2030-03-31 03:05:40']);
  });

  it('puts the metadata above the header with ?meta=1', async () => {
    const lines = text(await get('history.csv?meta=1'))
      .slice(1)
      .split('\r\n');
    expect(lines.slice(0, 3)).toEqual([
      'Badanie;"Ściana ""A""; EI 60"',
      `Identyfikator;${researchId}`,
      'Norma;EN 1363-1 — element ogólny',
    ]);
    expect(lines).toContain('Krzywa nagrzewania;Krzywa standardowa ISO 834');
    expect(lines).toContain('Zapłon (Europe/Warsaw);2030-03-31 01:59:00');
    expect(lines).toContain('T0 [°C];21;średnia z 60 s przed zapłonem');
    expect(lines).toContain('Termopara wyłączona;T3 (kanał 3);od 00:05:00;odpadła');
    expect(lines).toContain('Termopara uszkodzona;T2 (kanał 2);poza zakresem od 00:06:40 do 00:06:40;odczyty: 1');
    const header = lines.findIndex((l) => l.startsWith('Czas [s];'));
    expect(lines[header - 1]).toBe('');
    expect(lines.length - header).toBe(1 + TIMES.length + 1);
  });

  it('writes the XLSX with real numbers, Warsaw date cells, a frozen header and the criteria and thermocouple sheets', async () => {
    const res = await get('history.xlsx');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toMatch(/filename="Sciana-A-EI-60-[0-9a-f]{8}\.xlsx"/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes(res));
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Odczyty', 'Kryteria i obserwacje', 'Termopary']);
    const readings = workbook.getWorksheet('Odczyty')!;
    expect(readings.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(readings.getRow(1).getCell(8).value).toBe('T1 – Tśr i Tmax [°C]');
    expect(readings.rowCount).toBe(1 + TIMES.length);
    const at400 = readings.getRow(2 + TIMES.indexOf(400));
    expect(at400.getCell(1).value).toBe(400);
    const date = at400.getCell(4).value as Date;
    expect(date).toBeInstanceOf(Date);
    expect(date.getTime()).toBe(Date.UTC(2030, 2, 31, 3, 5, 40)); // the Warsaw wall clock, as a spreadsheet holds it
    expect(at400.getCell(4).numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    // A duration cell: 400 s as a fraction of a day, which a reader gives back as a time on Excel's day 0.
    expect(at400.getCell(3).numFmt).toBe('[hh]:mm:ss');
    expect((at400.getCell(3).value as Date).getTime()).toBe(Date.UTC(1899, 11, 30, 0, 6, 40));
    expect(at400.getCell(13).value).toBe(60);
    expect(at400.getCell(15).value).toBe(39);
    expect(at400.getCell(22).value).toBeCloseTo(deviationAt(400), 3);
    expect(readings.getRow(2).getCell(3).value).toBe('-00:01:00');

    const criteria = workbook.getWorksheet('Kryteria i obserwacje')!;
    const rows = criteria.getSheetValues().filter(Boolean) as unknown[][];
    const find = (label: string) => rows.find((r) => r[1] === label);
    expect(find('E (szczelność)')?.slice(1, 5)).toEqual([
      'E (szczelność)',
      6,
      new Date(Date.UTC(1899, 11, 30, 0, 6, 50)),
      'osiągnięte',
    ]);
    expect(find('I (izolacyjność)')?.slice(1, 5)).toEqual(['I (izolacyjność)', 6, undefined, 'nieosiągnięte']);
    expect(find('Klasyfikacja')?.[2]).toBe('brak (E poniżej 15 min)');
    expect(find('T0 [°C]')?.[2]).toBe(21);
    expect(rows.some((r) => r[1] === 'Notatka' && r[4] === 'tylko dla personelu')).toBe(true);

    const thermo = workbook.getWorksheet('Termopary')!;
    expect(thermo.getRow(1).values).toEqual([
      undefined,
      'Kanał',
      'Nazwa',
      'Typ',
      'Konfiguracja',
      'Wyłączona',
      'Uszkodzona / podejrzana',
    ]);
    expect(thermo.getRow(4).values).toEqual([undefined, 3, 'T3', 'Tśr i Tmax', 'config.txt', 'od 00:05:00: odpadła']);
    expect(String(thermo.getRow(3).getCell(6).value)).toContain('poza zakresem od 00:06:40 do 00:06:40');
  });

  it('writes the CSV and the XLSX in English with ?lang=en: headers, metadata, sheets and criteria; names and reasons as typed', async () => {
    const lines = text(await get('history.csv?meta=1&lang=en'))
      .slice(1)
      .split('\r\n');
    expect(lines.slice(0, 3)).toEqual([
      'Test;"Ściana ""A""; EI 60"',
      `Identifier;${researchId}`,
      'Standard;EN 1363-1 — generic element',
    ]);
    expect(lines).toContain('T0 [°C];21;mean of the 60 s before ignition');
    expect(lines).toContain('Thermocouple excluded;T3 (channel 3);from 00:05:00;odpadła');
    const header = lines.find((l) => l.startsWith('Time [s];'))!.split(';');
    expect(header).toEqual([
      'Time [s]',
      'Time [min]',
      'Time since ignition',
      'Date and time (Europe/Warsaw)',
      'Radiation [kW/m²]',
      'Pressure [Pa]',
      'Furnace temperature [°C]',
      'T1 – Tśr i Tmax [°C]',
      'T2 – Tśr i Tmax [°C]',
      'T3 – Tśr i Tmax [°C]',
      'Ściana Ł – Tmax [°C]',
      'thermo_5_c',
      'Tśr i Tmax – max [°C]',
      'Tśr i Tmax – mean [°C]',
      'Tśr i Tmax – max rise above T0 [K]',
      'Tśr i Tmax – mean rise above T0 [K]',
      'Tmax – max [°C]',
      'Tmax – mean [°C]',
      'Tmax – max rise above T0 [K]',
      'Tmax – mean rise above T0 [K]',
      'Standard curve [°C]',
      'd_e [%]',
      'Channels out of range',
      'Observations',
    ]);

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes(await get('history.xlsx?lang=en')));
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Readings', 'Criteria and observations', 'Thermocouples']);
    expect(workbook.getWorksheet('Readings')!.getRow(1).getCell(1).value).toBe('Time [s]');
    const rows = workbook.getWorksheet('Criteria and observations')!.getSheetValues().filter(Boolean) as unknown[][];
    expect(rows.find((r) => r[1] === 'E (integrity)')?.slice(1, 5)).toEqual([
      'E (integrity)',
      6,
      new Date(Date.UTC(1899, 11, 30, 0, 6, 50)),
      'reached',
    ]);
    expect(rows.find((r) => r[1] === 'Classification')?.[2]).toBe('none (E under 15 min)');
    expect(rows.some((r) => r[1] === 'Note' && r[4] === 'tylko dla personelu' && r[5] === 'no')).toBe(true);
    expect(workbook.getWorksheet('Thermocouples')!.getRow(4).values).toEqual([
      undefined,
      3,
      'T3',
      'Tśr i Tmax',
      'config.txt',
      'from 00:05:00: odpadła',
    ]);
  });

  it('gives a client only the observations visible to clients, and nothing of another research', async () => {
    const csv = text(await get('history.csv', client));
    expect(csv).toContain(';cotton_pad\r\n');
    expect(csv).not.toContain(';note\r\n');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes(await get('history.xlsx', client)));
    const rows = workbook.getWorksheet('Kryteria i obserwacje')!.getSheetValues().filter(Boolean) as unknown[][];
    expect(rows.some((r) => r[1] === 'Notatka')).toBe(false);
    expect(rows.some((r) => r[1] === 'Zapłon tamponu bawełnianego')).toBe(true);

    for (const path of ['history.csv', 'history.csv?meta=1', 'history.xlsx']) {
      expect((await get(path, foreign)).status).toBe(403);
      expect((await api.http.get(`/api/v1/research/${researchId}/${path}`)).status).toBe(401);
    }
  });

  it('exports a research without readings as a header and an empty workbook', async () => {
    const empty = (await createResearch(api, staff)).id;
    const csv = await api.http.get(`/api/v1/research/${empty}/history.csv`).set(auth(staff));
    expect(csv.status).toBe(200);
    expect(csv.text.slice(1).split('\r\n')).toEqual([expect.stringMatching(/^Czas \[s\];.*;Obserwacje$/), '']);
    const res = await download(`/api/v1/research/${empty}/history.xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes(res));
    expect(workbook.getWorksheet('Odczyty')!.rowCount).toBe(1);
    const rows = workbook.getWorksheet('Kryteria i obserwacje')!.getSheetValues().filter(Boolean) as unknown[][];
    expect(rows.find((r) => r[1] === 'Klasyfikacja')?.[2]).toBe('brak danych');
    expect((await api.http.get(`/api/v1/research/${randomUUID()}/history.xlsx`).set(auth(staff))).status).toBe(404);
  });

  it("names the download after the research without its bidi controls: U+202E cannot make a CSV's name read as a PDF", async () => {
    const spoof = (await createResearch(api, staff, { name: 'Raport\u202Efdp.exe' })).id;
    const csv = await api.http.get(`/api/v1/research/${spoof}/history.csv`).set(auth(staff));
    expect(csv.status).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="Raport-fdp-exe-[0-9a-f]{8}\.csv"; filename\*=UTF-8''Raportfdp\.exe\.csv$/,
    );
  });

  it.each([
    ['history.csv?decimal=x', 'decimal'],
    ['history.csv?meta=2', 'meta'],
    ['history.xlsx?from=abc', 'from'],
    ['history.csv?lang=de', 'lang'],
    ['history.xlsx?lang=PL', 'lang'],
  ])('refuses %s with a 422 naming %s', async (path, field) => {
    const res = await api.http.get(`/api/v1/research/${researchId}/${path}`).set(auth(staff));
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: { loc: string[] }) => d.loc.join('.'))).toContain(`query.${field}`);
  });
});
