import { PassThrough, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { type CriteriaSnapshot } from '@furnace/contracts';
import { CriteriaEngine, DEFAULT_TEST_PROFILE } from '@furnace/criteria';
import type { ObservationEntity, ThermoExclusionEntity } from '@furnace/db';
import type { Language } from '@furnace/text';
import { Elapsed, type ExportCell, type ExportLayout, warsawWallClock } from './export-format';
import type { ExportContext } from './export.service';
import { writeWorkbook } from './xlsx';

const IGNITION = new Date(Date.UTC(2030, 2, 31, 0, 59, 0));
const layout: ExportLayout = {
  channels: 2,
  labels: new Map([[1, { name: 'Ściana Ł', types: ['Tmax'] }]]),
  categories: [],
};

function context(signal?: AbortSignal): ExportContext {
  return {
    researchId: '0b9f2b4e-5a8c-4d3e-9f10-2a3b4c5d6e7f',
    name: 'Ściana "A"',
    layout,
    meta: {
      research: { id: '0b9f2b4e-5a8c-4d3e-9f10-2a3b4c5d6e7f', name: 'Ściana "A"; <EI 60> & co' },
      profile: DEFAULT_TEST_PROFILE,
      ignitionAt: IGNITION,
      t0: { value: 21, source: 'auto' },
      excluded: [],
      failed: [{ thermoId: 2, name: null, firstTime: 400, lastTime: 410, frames: 2 }],
    },
    markers: [{ thermoId: 1, name: 'Ściana Ł', type: 'Tmax', config: 'config.txt' }],
    exclusions: [{ thermoId: 1, fromTime: 300, reason: 'odpadła <&>' } as ThermoExclusionEntity],
    observations: [
      { time: 305, kind: 'note', note: 'dym "gęsty" & iskry', visibleToClients: false } as ObservationEntity,
    ],
    profile: DEFAULT_TEST_PROFILE,
    engine: new CriteriaEngine({ profile: DEFAULT_TEST_PROFILE, markers: [] }),
    classificationWithheld: false,
    range: { from: Number.NEGATIVE_INFINITY, to: Number.MAX_VALUE },
    ignitionAt: IGNITION,
    signal,
  };
}

const measured = { measured: true, deemed: false };

function snapshot(): CriteriaSnapshot {
  const empty = new CriteriaEngine({ profile: DEFAULT_TEST_PROFILE, markers: [], ended: true }).snapshot();
  return {
    ...empty,
    criteria: {
      E: { time: 410, minutes: 6, reached: true, held_minutes: 6, ...measured },
      I: { time: null, minutes: 6, reached: false, held_minutes: 6, ...measured },
      W: { time: null, minutes: null, reached: false, held_minutes: 5, ...measured },
    },
    insulation_classes: null,
    classification: '',
    deviation: { d_e: 1.23456, tolerance: 15, ok: true, periods: [], conforming: true },
    failures: [{ criterion: 'I_max', time: 400, interval_from: null, thermo_id: 1, type_name: 'Tmax' }],
    suspects: [{ thermo_id: 1, reason: 'stuck', time: 200 }],
  };
}

/** One frame's cells as the export service makes them (export-format.ts's columns, no category). */
function frame(time: number, value: number | null, faults = '', observations = ''): ExportCell[] {
  const wallClock = warsawWallClock(new Date(IGNITION.getTime() + time * 1000));
  return [
    time,
    Math.round((time / 60) * 10_000) / 10_000,
    new Elapsed(time),
    wallClock,
    1.5,
    null,
    812.4,
    value,
    time === 400 ? null : value,
    834.123,
    null,
    faults,
    observations,
  ];
}

async function* pages(...list: ExportCell[][][]): AsyncGenerator<ExportCell[][]> {
  for (const page of list) yield page;
}

/**
 * A test ended at 30:30: d_e out of tolerance twice (the second still at the last reading), the pressure
 * once; I measured and failed at 25:00, W without a radiometer (deemed met while I held).
 */
function periodsSnapshot(): CriteriaSnapshot {
  return {
    ...snapshot(),
    elapsed: 1830,
    criteria: {
      E: { time: null, minutes: 30, reached: false, held_minutes: 30, ...measured },
      I: { time: 1500, minutes: 25, reached: true, held_minutes: 25, ...measured },
      W: { time: null, minutes: 25, reached: false, held_minutes: 25, measured: false, deemed: true },
    },
    insulation_classes: null,
    classification: 'E 30, EI 20',
    deviation: {
      d_e: 9.5,
      tolerance: 4.9585,
      ok: false,
      periods: [
        { from: 420, to: 510, open: false, worst: -16.2, worst_tolerance: 15, worst_time: 480 },
        { from: 1500, to: 1830, open: true, worst: 9.87, worst_tolerance: 5.8333, worst_time: 1700 },
      ],
      conforming: false,
    },
    pressure: {
      target: 20,
      value: 21.5,
      tolerance: 3,
      ok: true,
      periods: [{ from: 660, to: 700, open: false, worst: -4.6, worst_tolerance: 3, worst_time: 680 }],
      conforming: false,
    },
    failures: [],
  };
}

/** The workbook written into memory, read back by exceljs. */
async function workbookOf(
  rows: AsyncIterable<ExportCell[][]>,
  ctx = context(),
  criteria = snapshot,
  lang: Language = 'pl',
): Promise<ExcelJS.Workbook> {
  const chunks: Buffer[] = [];
  const out = new Writable({ write: (chunk: Buffer, _encoding, done) => (chunks.push(chunk), done()) });
  await writeWorkbook(out, ctx, rows, criteria, lang);
  const workbook = new ExcelJS.Workbook();
  const bytes = Buffer.concat(chunks);
  await workbook.xlsx.load(
    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as Parameters<ExcelJS.Xlsx['load']>[0],
  );
  return workbook;
}

describe('the history workbook', () => {
  it('holds the readings as numbers, Warsaw date cells and durations under a bold, frozen header', async () => {
    const workbook = await workbookOf(
      pages([frame(-60, 20), frame(0, 21.4)], [frame(400, 60.5, '2', 'cotton_pad note')]),
    );
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Odczyty', 'Kryteria i obserwacje', 'Termopary']);
    const readings = workbook.getWorksheet('Odczyty')!;
    expect(readings.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(readings.rowCount).toBe(4);
    const header = readings.getRow(1);
    expect(header.getCell(1).value).toBe('Czas [s]');
    expect(header.getCell(8).value).toBe('Ściana Ł – Tmax [°C]');
    expect(header.getCell(9).value).toBe('thermo_2_c');
    expect(header.getCell(1).font?.bold).toBe(true);
    expect(readings.getRow(2).getCell(1).font?.bold).toBeFalsy();
    expect(readings.getColumn(1).width).toBe(10);
    expect(readings.getColumn(4).width).toBe(20);
    expect(readings.getColumn(8).width).toBe(22);

    const before = readings.getRow(2);
    expect(before.getCell(1).value).toBe(-60);
    expect(before.getCell(2).value).toBe(-1);
    expect(before.getCell(3).value).toBe('-00:01:00');
    expect((before.getCell(4).value as Date).getTime()).toBe(Date.UTC(2030, 2, 31, 1, 58, 0)); // CET
    const at = readings.getRow(4);
    expect(at.getCell(2).value).toBe(6.6667);
    expect(at.getCell(3).numFmt).toBe('[hh]:mm:ss');
    expect((at.getCell(3).value as Date).getTime()).toBe(Date.UTC(1899, 11, 30, 0, 6, 40));
    expect(at.getCell(4).numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect((at.getCell(4).value as Date).getTime()).toBe(Date.UTC(2030, 2, 31, 3, 5, 40)); // CEST
    expect([5, 6, 7, 8, 9, 10, 11].map((c) => at.getCell(c).value)).toEqual([
      1.5,
      null,
      812.4,
      60.5,
      null,
      834.123,
      null,
    ]);
    expect(at.getCell(12).value).toBe('2');
    expect(at.getCell(13).value).toBe('cotton_pad note');
    expect(readings.getRow(3).getCell(12).value).toBe(null);
  });

  it('keeps the criteria, the metadata, the observations and the thermocouples in their sheets', async () => {
    const workbook = await workbookOf(pages([frame(0, 21)]));
    const criteria = workbook.getWorksheet('Kryteria i obserwacje')!;
    expect(criteria.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect([1, 2, 3, 4, 5].map((c) => criteria.getColumn(c).width)).toEqual([34, 28, 30, 40, 14]);
    const rows = criteria.getSheetValues().filter(Boolean) as unknown[][];
    const find = (label: string) => rows.find((r) => r[1] === label);
    expect(rows[0]).toEqual([undefined, 'Kryterium', 'Czas [min] (ukończone minuty)', 'Osiągnięte po', 'Uwagi']);
    expect(criteria.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(find('E (szczelność)')).toEqual([
      undefined,
      'E (szczelność)',
      6,
      new Date(Date.UTC(1899, 11, 30, 0, 6, 50)),
      'osiągnięte',
    ]);
    expect(find('I (izolacyjność)')).toEqual([undefined, 'I (izolacyjność)', 6, undefined, 'nieosiągnięte']);
    expect(find('W (promieniowanie)')).toEqual([undefined, 'W (promieniowanie)', 5, undefined, 'nieosiągnięte']);
    expect(criteria.getRow(5).values).toEqual([]);
    expect(find('Klasyfikacja')?.[2]).toBe('brak (E poniżej 15 min)');
    expect(find('Badanie')?.[2]).toBe('Ściana "A"; <EI 60> & co');
    expect(find(`Zapłon (Europe/Warsaw)`)?.[2]).toEqual(new Date(Date.UTC(2030, 2, 31, 1, 59, 0)));
    expect(find('T0 [°C]')?.slice(2)).toEqual([21, 'średnia z 60 s przed zapłonem']);
    expect(find('Termopara uszkodzona')?.slice(2)).toEqual([
      'kanał 2',
      'poza zakresem od 00:06:40 do 00:06:50',
      'odczyty: 2',
    ]);
    expect(find('d_e [%]')?.slice(2)).toEqual([1.235, 'w tolerancji']);
    expect(find('Zgodność pieca (d_e)')?.slice(2)).toEqual(['zgodne']);
    expect(rows.some((r) => r[1] === 'd_e poza tolerancją (od, do)')).toBe(false);
    // The profile sets no pressure target: no pressure rows.
    expect(rows.some((r) => String(r[1]).startsWith('Ciśnienie w piecu') || r[1] === 'Zgodność ciśnienia')).toBe(false);
    expect(rows.find((r) => String(r[1]).startsWith('Przekroczenie'))?.slice(2)).toEqual([
      6,
      new Date(Date.UTC(1899, 11, 30, 0, 6, 40)),
      'kanał 1 (Tmax)',
    ]);
    const observations = rows.findIndex((r) => r[1] === 'Obserwacja');
    expect(rows[observations]).toEqual([
      undefined,
      'Obserwacja',
      'Data i godzina (Europe/Warsaw)',
      'Czas od zapłonu',
      'Notatka',
      'Widoczna dla klientów',
    ]);
    expect(criteria.getRow(criteria.rowCount - 1).getCell(1).font?.bold).toBe(true);
    expect(rows[observations + 1]).toEqual([
      undefined,
      'Notatka',
      new Date(Date.UTC(2030, 2, 31, 3, 4, 5)),
      new Date(Date.UTC(1899, 11, 30, 0, 5, 5)),
      'dym "gęsty" & iskry',
      'nie',
    ]);
    expect(criteria.getRow(criteria.rowCount).getCell(2).numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(criteria.getRow(criteria.rowCount).getCell(3).numFmt).toBe('[hh]:mm:ss');

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
    expect(thermo.getRow(2).values).toEqual([
      undefined,
      1,
      'Ściana Ł',
      'Tmax',
      'config.txt',
      'od 00:05:00: odpadła <&>',
      'stała wartość przez 2 min od 00:03:20',
    ]);
    expect([1, 2, 3, 4, 5, 6].map((c) => thermo.getColumn(c).width)).toEqual([8, 14, 22, 30, 44, 44]);
  });

  it('gives the d_e and pressure verdicts with a row per period out of tolerance, I measured and W deemed', async () => {
    const workbook = await workbookOf(pages([frame(0, 21)]), context(), periodsSnapshot);
    const rows = workbook.getWorksheet('Kryteria i obserwacje')!.getSheetValues().filter(Boolean) as unknown[][];
    const find = (label: string) => rows.filter((r) => r[1] === label).map((r) => r.slice(2));
    const elapsed = (s: number) => new Date(Date.UTC(1899, 11, 30) + s * 1000);
    expect(find('E (szczelność)')).toEqual([[30, undefined, 'nieosiągnięte']]);
    expect(find('I (izolacyjność)')).toEqual([[25, elapsed(1500), 'osiągnięte']]);
    expect(find('W (promieniowanie)')).toEqual([
      [25, undefined, 'nie mierzono; uznane za spełnione, dopóki spełnione jest I'],
    ]);
    expect(find('Klasyfikacja')).toEqual([['E 30, EI 20']]);
    expect(find('d_e [%]')).toEqual([[9.5, 'poza tolerancją']]);
    expect(find('Zgodność pieca (d_e)')).toEqual([['niezgodne']]);
    expect(find('d_e poza tolerancją (od, do)')).toEqual([
      [elapsed(420), elapsed(510), 'najgorsze d_e -16.20 % przy tolerancji ±15 % (00:08:00)'],
      [elapsed(1500), elapsed(1830), 'najgorsze d_e 9.87 % przy tolerancji ±5.83 % (00:28:20)', 'trwa'],
    ]);
    expect(find('Ciśnienie w piecu [Pa]')).toEqual([[21.5, 'w tolerancji', 'cel 20 Pa ±3 Pa']]);
    expect(find('Zgodność ciśnienia')).toEqual([['niezgodne']]);
    expect(find('Ciśnienie poza tolerancją (od, do)')).toEqual([
      [elapsed(660), elapsed(700), 'najdalej od celu -4.6 Pa przy tolerancji ±3 Pa (00:11:20)'],
    ]);
    // In the order a reader takes them: the value now, the verdict, its periods; d_e, then the pressure.
    const order = [
      'd_e [%]',
      'Zgodność pieca (d_e)',
      'd_e poza tolerancją (od, do)',
      'Ciśnienie w piecu [Pa]',
      'Zgodność ciśnienia',
      'Ciśnienie poza tolerancją (od, do)',
    ];
    const at = rows.map((r) => r[1]).filter((label) => order.includes(label as string));
    expect(at).toEqual([
      'd_e [%]',
      'Zgodność pieca (d_e)',
      'd_e poza tolerancją (od, do)',
      'd_e poza tolerancją (od, do)',
      'Ciśnienie w piecu [Pa]',
      'Zgodność ciśnienia',
      'Ciśnienie poza tolerancją (od, do)',
    ]);
  });

  it('writes "nie mierzono" for a criterion nothing measured, never minutes held, and says why no class was given', async () => {
    const notMeasured = {
      time: null,
      minutes: null,
      reached: false,
      held_minutes: null,
      measured: false,
      deemed: false,
    };
    const base = periodsSnapshot();
    const workbook = await workbookOf(pages([frame(0, 21)]), context(), () => ({
      ...base,
      classification: '',
      criteria: { E: { ...base.criteria.E, minutes: 20, held_minutes: 20 }, I: notMeasured, W: notMeasured },
    }));
    const rows = workbook.getWorksheet('Kryteria i obserwacje')!.getSheetValues().filter(Boolean) as unknown[][];
    const find = (label: string) => rows.find((r) => r[1] === label)?.slice(2);
    expect(find('I (izolacyjność)')).toEqual([undefined, undefined, 'nie mierzono']);
    expect(find('W (promieniowanie)')).toEqual([undefined, undefined, 'nie mierzono']);
    // E held 20 min: not under 15 min, but under the shortest class of its standard (DIN 4102-5's T 30).
    expect(find('Klasyfikacja')).toEqual(['brak (poniżej najkrótszego okresu klasyfikacji)']);
  });

  it('writes its sheets, headers and words in English when asked for English', async () => {
    const workbook = await workbookOf(pages([frame(0, 21)]), context(), periodsSnapshot, 'en');
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Readings', 'Criteria and observations', 'Thermocouples']);
    const header = workbook.getWorksheet('Readings')!.getRow(1);
    expect([1, 2, 3, 4, 8, 9].map((c) => header.getCell(c).value)).toEqual([
      'Time [s]',
      'Time [min]',
      'Time since ignition',
      'Date and time (Europe/Warsaw)',
      'Ściana Ł – Tmax [°C]',
      'thermo_2_c',
    ]);
    const rows = workbook.getWorksheet('Criteria and observations')!.getSheetValues().filter(Boolean) as unknown[][];
    const find = (label: string) => rows.filter((r) => r[1] === label).map((r) => r.slice(2));
    const elapsed = (s: number) => new Date(Date.UTC(1899, 11, 30) + s * 1000);
    expect(rows[0]).toEqual([undefined, 'Criterion', 'Time [min] (completed minutes)', 'Reached after', 'Remarks']);
    expect(find('E (integrity)')).toEqual([[30, undefined, 'not reached']]);
    expect(find('I (insulation)')).toEqual([[25, elapsed(1500), 'reached']]);
    expect(find('W (radiation)')).toEqual([[25, undefined, 'not measured; deemed met while I holds']]);
    expect(find('Furnace conformity (d_e)')).toEqual([['non-conforming']]);
    expect(find('d_e out of tolerance (from, to)')[1]).toEqual([
      elapsed(1500),
      elapsed(1830),
      'worst d_e 9.87 % at a tolerance of ±5.83 % (00:28:20)',
      'ongoing',
    ]);
    expect(find('Furnace pressure [Pa]')).toEqual([[21.5, 'within tolerance', 'target 20 Pa ±3 Pa']]);
    expect(find('Test')).toEqual([['Ściana "A"; <EI 60> & co']]);
    expect(find('T0 [°C]')).toEqual([[21, 'mean of the 60 s before ignition']]);
    const observations = rows.findIndex((r) => r[1] === 'Observation');
    expect(rows[observations]).toEqual([
      undefined,
      'Observation',
      'Date and time (Europe/Warsaw)',
      'Time since ignition',
      'Note',
      'Visible to clients',
    ]);
    expect(rows[observations + 1]?.[1]).toBe('Note');
    expect(rows[observations + 1]?.[5]).toBe('no');
    const thermo = workbook.getWorksheet('Thermocouples')!;
    expect(thermo.getRow(1).values).toEqual([
      undefined,
      'Channel',
      'Name',
      'Type',
      'Config',
      'Excluded',
      'Failed / suspect',
    ]);
    expect(thermo.getRow(2).getCell(5).value).toBe('from 00:05:00: odpadła <&>');
  });

  it('is a header alone without readings', async () => {
    const workbook = await workbookOf(pages());
    expect(workbook.getWorksheet('Odczyty')!.rowCount).toBe(1);
  });

  it('stops at the next page when the client has gone, and when the response fails', async () => {
    const controller = new AbortController();
    let made = 0;
    async function* endless(): AsyncGenerator<ExportCell[][]> {
      for (;;) {
        made += 1;
        if (made === 50) controller.abort(new Error('gone'));
        yield Array.from({ length: 100 }, (_, i) => frame(made * 100 + i, 20 + i / 10));
      }
    }
    const out = new PassThrough();
    out.resume();
    await expect(writeWorkbook(out, context(controller.signal), endless(), snapshot, 'pl')).rejects.toThrow('gone');
    expect(made).toBeLessThanOrEqual(51);

    // A response nobody reads and that then fails: the wait for it ends with its error.
    made = 0;
    const stuck = new Writable({ highWaterMark: 1024, write: () => undefined });
    setTimeout(() => stuck.destroy(new Error('socket hang up')), 100);
    await expect(writeWorkbook(stuck, context(), endless(), snapshot, 'pl')).rejects.toThrow('socket hang up');
    expect(made).toBeLessThan(50);
  });
});
