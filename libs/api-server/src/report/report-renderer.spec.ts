import { threadId } from 'node:worker_threads';
import type { ReportData, TestReportFields } from './report-pdf';
import { ReportRenderer } from './report-renderer';

/** A research whose test report fields were never filled in. */
const NO_REPORT_FIELDS: TestReportFields = {
  sponsor: null,
  manufacturer: null,
  specimenDescription: null,
  conditioning: null,
  supportingConstruction: null,
  exposedSide: null,
  ambientTemperatureC: null,
  pressureHeightMm: null,
  endReason: null,
  deviations: null,
  reportNumber: null,
  reportDate: null,
};

/** A 4-hour test's report as ReportService gathers it: 1000 history points, six category charts, pressure and radiation. */
function bigReport(): ReportData {
  const points = 1000;
  const time = Array.from({ length: points }, (_, i) => -60 + (i * (4 * 3600 + 60)) / (points - 1));
  const wave = (base: number, amp: number, k: number) =>
    time.map(
      (t, i) => Math.round((base + amp * Math.log10((8 * Math.max(t, 0)) / 60 + 1) + Math.sin(i / k)) * 10) / 10,
    );
  const categories = Array.from({ length: 6 }, (_, i) => `Kategoria ${i + 1}`);
  const series = [
    { key: 'pk', kind: 'pk', min: [], max: [], mean: wave(20, 345, 7) },
    { key: 'pressure', kind: 'pressure', min: [], max: [], mean: time.map((_, i) => 19 + Math.sin(i / 5) * 2) },
    { key: 'radiance', kind: 'radiance', min: [], max: [], mean: time.map((t) => Math.max(0, t) / 1000) },
    ...categories.flatMap((type_name, i) => [
      {
        key: `category:${type_name}:max`,
        kind: 'category_max',
        type_name,
        min: [],
        max: [],
        mean: wave(20, 40 + i * 5, 3 + i),
      },
      {
        key: `category:${type_name}:mean`,
        kind: 'category_mean',
        type_name,
        min: [],
        max: [],
        mean: wave(20, 30 + i * 5, 4 + i),
      },
    ]),
  ];
  const limit = (k: number) => ({ k, c: 20.5 + k, text: `T0 + ${k} K = ${20.5 + k} °C` });
  return {
    lang: 'pl',
    lab: 'Laboratorium',
    research: {
      name: 'Próba obciążeniowa',
      state: 'ended',
      approvedRevision: null,
      startAt: new Date('2026-03-01T08:00:00Z'),
      endAt: new Date('2026-03-01T13:00:00Z'),
      standard: 'EN_1634_1',
      insulation: null,
      heatingCurve: 'standard',
      plannedDurationMin: 240,
      pressureTargetPa: 20,
      pressureTolerancePa: 3,
      isRadiance: true,
      isPressure: true,
      ...NO_REPORT_FIELDS,
    },
    criteria: {
      t0: 20.5,
      t0_source: 'pre_ignition',
      elapsed: 4 * 3600,
      ended: true,
      basis: 'rise',
      insulation_classes: null,
      classification: 'EI 240',
      ignition_at: '2026-03-01T08:07:00Z',
      criteria: {
        E: { time: null, minutes: 240, reached: false, held_minutes: 240, measured: true, deemed: false },
        I: { time: null, minutes: 240, reached: false, held_minutes: 240, measured: true, deemed: false },
        W: { time: null, minutes: 240, reached: false, held_minutes: 240, measured: true, deemed: false },
      },
      limits: { mean: limit(140), max: limit(180), frame: limit(360) },
      deviation: {
        d_e: 1.2,
        tolerance: 2.5,
        ok: true,
        periods: [{ from: 900, to: 960, open: false, worst: -13.1, worst_tolerance: 12.5, worst_time: 930 }],
        conforming: false,
      },
      pressure: {
        target: 20,
        value: 19.5,
        tolerance: 3,
        ok: true,
        periods: [{ from: 700, to: 760, open: false, worst: -5.2, worst_tolerance: 3, worst_time: 730 }],
        conforming: false,
      },
      categories: categories.map((type_name) => ({
        type_name,
        role: { mean: true, max: true, frame: false },
        max: 200,
        mean: 150,
        max_rise: 179.5,
        mean_rise: 129.5,
        valid: 10,
        thermocouples: 10,
      })),
      failures: [],
      suspects: [],
    } as never,
    history: {
      research_id: 'r',
      from: -60,
      to: 4 * 3600,
      ignition_at: '2026-03-01T08:07:00Z',
      last_time: 4 * 3600,
      frames: 14_461,
      thermo_ids: [],
      bucket_seconds: 15,
      time,
      series,
      faults: [],
    } as never,
    observations: Array.from({ length: 12 }, (_, i) => ({
      time: 600 + i * 1000,
      kind: 'note' as const,
      note: `Notatka ${i + 1}`,
    })),
    exclusions: [],
    names: new Map([[1, 'T1']]),
    photos: [],
    drawings: [],
    generatedAt: new Date('2026-03-01T13:00:00Z'),
  };
}

/** The largest lateness of a 10 ms interval on this (the main) thread while `work` runs, ms. */
async function worstLateness(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 10);
    last = now;
  }, 10);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  // A loop blocked until now has not run the timer since.
  return Math.max(worst, performance.now() - last - 10);
}

const isPdf = (pdf: Buffer) => pdf.subarray(0, 5).toString('latin1') === '%PDF-';
const internals = (renderer: ReportRenderer) =>
  renderer as unknown as { worker: import('node:worker_threads').Worker | null };

describe('ReportRenderer', () => {
  let renderer: ReportRenderer;
  beforeEach(() => {
    renderer = new ReportRenderer({ idleMs: 60_000 });
  });
  afterEach(() => renderer.onModuleDestroy());

  it('lays the report out in a worker thread while the main event loop keeps ticking', async () => {
    expect(renderer.started).toBe(false);
    const data = bigReport();
    await renderer.render(data); // the worker's start-up and its modules' loading (compiled from .ts here)
    let result: { pdf: Buffer; threadId: number } | undefined;
    const worst = await worstLateness(async () => {
      for (let i = 0; i < 3; i++) result = await renderer.render(data);
    });
    expect(isPdf(result!.pdf)).toBe(true);
    expect(result!.pdf.length).toBeGreaterThan(20_000);
    expect(result!.threadId).not.toBe(threadId);
    expect(result!.threadId).toBeGreaterThan(0);
    // The same reports laid out on this thread, in the same run (a ratio, not a time: the machine's load
    // moves both): there each blocks the loop for its whole layout.
    const { renderReport } = await import('./report-pdf.js');
    const onThisThread = await worstLateness(async () => {
      for (let i = 0; i < 3; i++) {
        const doc = renderReport(data);
        await new Promise<void>((resolve, reject) => {
          doc.on('data', () => undefined);
          doc.on('end', resolve);
          doc.on('error', reject);
        });
      }
    });
    expect(worst).toBeLessThan(onThisThread / 2);
  });

  it('reuses one worker, renders reports one at a time in order, and ends it when idle', async () => {
    const idle = new ReportRenderer({ idleMs: 200 });
    try {
      const data = bigReport();
      const results = await Promise.all([idle.render(data), idle.render({ ...data, lang: 'en' }), idle.render(data)]);
      expect(new Set(results.map((r) => r.threadId)).size).toBe(1);
      results.forEach((r) => expect(isPdf(r.pdf)).toBe(true));
      expect(idle.started).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(idle.started).toBe(false);
      // A new one for the next report.
      expect((await idle.render(data)).threadId).not.toBe(results[0]!.threadId);
    } finally {
      await idle.onModuleDestroy();
    }
  });

  it('drops a queued report whose client went away, and discards the result of a running one', async () => {
    const data = bigReport();
    const running = new AbortController();
    const queued = new AbortController();
    const first = renderer.render(data, running.signal);
    const second = renderer.render(data, queued.signal);
    const third = renderer.render(data);
    const reason = new Error('gone');
    queued.abort(reason);
    await expect(second).rejects.toBe(reason);
    running.abort(reason);
    await expect(first).rejects.toBe(reason);
    expect(isPdf((await third).pdf)).toBe(true);
    // An aborted signal before the call: nothing is queued.
    await expect(renderer.render(data, AbortSignal.abort(reason))).rejects.toBe(reason);
  });

  it('fails a report whose layout throws with a clear error, and keeps the worker for the next', async () => {
    const data = bigReport();
    const { threadId: worker } = await renderer.render(data);
    await expect(renderer.render({ ...data, criteria: null as never })).rejects.toThrow(
      "The PDF report could not be rendered: Cannot read properties of null (reading 'elapsed')",
    );
    expect((await renderer.render(data)).threadId).toBe(worker);
  });

  it('survives a worker that dies while rendering: the report fails, the next starts a new worker', async () => {
    const data = bigReport();
    const { threadId: before } = await renderer.render(data);
    const dying = renderer.render(data);
    const queued = renderer.render(data);
    await internals(renderer).worker!.terminate();
    await expect(dying).rejects.toThrow('The PDF report could not be rendered: the report worker exited with code 1');
    const after = await queued;
    expect(isPdf(after.pdf)).toBe(true);
    expect(after.threadId).not.toBe(before);
  });

  it('refuses data that cannot be passed to the worker, and reports after shutdown', async () => {
    await expect(renderer.render({ ...bigReport(), lab: (() => 'x') as never })).rejects.toThrow(/could not be cloned/);
    await renderer.onModuleDestroy();
    await expect(renderer.render(bigReport())).rejects.toThrow('The report renderer has been shut down');
    expect(renderer.started).toBe(false);
  });
});
