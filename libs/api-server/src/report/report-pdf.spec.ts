import type { CriteriaView } from '@furnace/contracts';
import { pdfPages } from '../../test/pdf';
import { categoryChartSvg, categoryLimits, furnaceChartSvg, pressureBandPieces, pressureChartSvg, seriesPoints } from './report-charts';
import { type ReportData, renderReport, samplingInterval, testEnd, thermoName, withRise } from './report-pdf';
import { type ReportLang, reportTexts } from './report-text';

const limits = {
  mean: { k: 140, c: 160.5, text: 'T0 + 140 K = 160.5 °C' },
  max: { k: 180, c: 200.5, text: 'T0 + 180 K = 200.5 °C' },
  frame: { k: 360, c: 380.5, text: 'T0 + 360 K = 380.5 °C' },
};
const category = (role: { mean: boolean; max: boolean; frame: boolean }) => ({ type_name: 'Tśr i Tmax', role, max: null, mean: null, max_rise: null, mean_rise: null, valid: 2, thermocouples: 2 });
const history = {
  time: [-10, 0, 60, 120],
  series: [
    { key: 'pk', kind: 'pk' as const, min: [], max: [], mean: [20, 20, 349, 465] },
    { key: 'category:Tśr i Tmax:max', kind: 'category_max' as const, type_name: 'Tśr i Tmax', min: [], max: [], mean: [20, 20.5, 30.5, null] },
  ],
};

describe('report layout', () => {
  it('ends the test at a test_stopped observation, else at the newest frame', () => {
    expect(testEnd({ criteria: { elapsed: 3600 } as never, observations: [] })).toBe(3600);
    expect(testEnd({ criteria: { elapsed: 3600 } as never, observations: [{ time: 3000, kind: 'test_stopped', note: null }] })).toBe(3000);
  });

  it("gives the sampling interval from the history's frames over its range", () => {
    expect(samplingInterval({ from: 0, to: 3600, frames: 361 })).toBe(10);
    expect(samplingInterval({ from: 0, to: 0, frames: 1 })).toBeNull();
  });

  it('writes a temperature with its signed rise; a rise rounding to zero unsigned', () => {
    expect(withRise(200, 179.5)).toBe('200.0 °C (+179.5 K)');
    expect(withRise(20.2, -0.04)).toBe('20.2 °C (0.0 K)');
    expect(withRise(19, -1.25)).toBe('19.0 °C (−1.3 K)');
    expect(withRise(null, null)).toBe('---');
    expect(withRise(210, null)).toBe('210.0 °C');
  });

  it('names a thermocouple by its marker, "#id" without one', () => {
    expect(thermoName(new Map([[2, 'T2']]), 2)).toBe('T2');
    expect(thermoName(new Map(), 7)).toBe('#7');
    expect(thermoName(new Map(), null)).toBe('—');
  });

  it("judges a category's max line by the frame limit when it counts for the frame only, as the dashboard does", () => {
    expect(categoryLimits(category({ mean: true, max: true, frame: false }), limits)).toEqual({ max: limits.max, mean: limits.mean });
    expect(categoryLimits(category({ mean: false, max: false, frame: true }), limits)).toEqual({ max: limits.frame, mean: null });
    expect(categoryLimits(category({ mean: false, max: false, frame: false }), limits)).toEqual({ max: null, mean: null });
  });

  it('plots a series from ignition on, in minutes, shifted by T0 for a rise', () => {
    expect(seriesPoints(history, 'category:Tśr i Tmax:max', 20.5)).toEqual([
      [0, 0],
      [1, 10],
      [2, null],
    ]);
    expect(seriesPoints(history, 'nothing')).toEqual([]);
  });

  it('draws the charts as vectors with their labels as text', () => {
    const texts = reportTexts('pl');
    const rise = categoryChartSvg({ history, category: category({ mean: true, max: true, frame: false }), criteria: { t0: 20.5, basis: 'rise', limits }, endS: 120, marks: [{ time: 60, label: 'Notatka' }], texts, width: 500 }).svg;
    expect(rise).toMatch(/^<svg/);
    expect(rise).not.toContain('<image');
    expect(rise).toContain('granica 180.0 K');
    expect(rise).toContain('granica 140.0 K');
    expect(rise).toContain('Notatka');
    const absolute = categoryChartSvg({ history, category: category({ mean: true, max: true, frame: false }), criteria: { t0: 20.5, basis: 'absolute', limits }, endS: 120, marks: [], texts, width: 500 }).svg;
    expect(absolute).toContain('granica 200.5 °C');
    const furnace = furnaceChartSvg({ history, curve: 'iso834', endS: 120, marks: [], texts, curveName: 'Krzywa standardowa ISO 834', width: 500 }).svg;
    expect(furnace).toContain('Krzywa standardowa ISO 834');
    expect(furnace).toContain('d_e [%]');
  });
});

/**
 * A test ended at 30:30: d_e out of tolerance twice (the second still at the last reading), the pressure
 * once; I measured and failed at 25:00, W without a radiometer (deemed met while I held).
 */
function criteriaView(): CriteriaView {
  const held = { measured: true, deemed: false };
  return {
    t0: 20.5,
    t0_source: 'auto',
    elapsed: 1830,
    basis: 'rise',
    limits: { mean: limits.mean, max: limits.max, frame: null },
    categories: [],
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
      periods: [{ from: 660, to: 700, open: false, worst: 4.6, worst_tolerance: 3, worst_time: 680 }],
      conforming: false,
    },
    failures: [{ criterion: 'I_max', time: 1500, interval_from: null, thermo_id: 1, type_name: 'Tmax' }],
    excursions: [],
    criteria: {
      E: { time: null, minutes: 30, reached: false, held_minutes: 30, ...held },
      I: { time: 1500, minutes: 25, reached: true, held_minutes: 25, ...held },
      W: { time: null, minutes: 25, reached: false, held_minutes: 25, measured: false, deemed: true },
    },
    insulation_classes: null,
    classification: 'E 30, EI 20',
    forecast: [],
    suspects: [],
    excluded: [],
    ended: true,
    classification_withheld: false,
    ignition_at: '2026-03-01T08:07:00Z',
  };
}

function reportData(lang: ReportLang, criteria: CriteriaView): ReportData {
  return {
    lang,
    lab: 'Laboratorium',
    research: {
      name: 'Ściana',
      startAt: new Date('2026-03-01T08:00:00Z'),
      endAt: new Date('2026-03-01T09:00:00Z'),
      standard: 'EN_1364_1',
      insulation: null,
      heatingCurve: 'iso834',
      plannedDurationMin: 30,
      pressureTargetPa: 20,
      pressureTolerancePa: null,
      isRadiance: false,
      isPressure: true,
    },
    criteria,
    // No readings: the charts' section says so, the criteria are the view's.
    history: { research_id: 'r', from: 0, to: 0, ignition_at: criteria.ignition_at, last_time: null, frames: 0, thermo_ids: [], bucket_seconds: 0, time: [], series: [], faults: [] },
    observations: [],
    exclusions: [],
    names: new Map([[1, 'T1']]),
    photos: [],
    generatedAt: new Date('2026-03-01T09:00:00Z'),
  };
}

/** The report's text as pdf.js reads it, its pages joined, each run of white space (a cell's text wraps) one space. */
async function reportText(data: ReportData): Promise<string> {
  const doc = renderReport(data);
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  return (await pdfPages(Buffer.concat(chunks))).join('\n').replace(/\s+/g, ' ');
}

describe('the report of the criteria', () => {
  it('gives the d_e and pressure verdicts, every period out of tolerance, I measured and W deemed, in Polish', async () => {
    const text = await reportText(reportData('pl', criteriaView()));
    expect(text).toContain('E (szczelność) --- 30 min nie osiągnięto');
    expect(text).toContain('I (izolacyjność) 00:25:00 25 min przekroczone');
    expect(text).toContain('W (promieniowanie) --- 25 min nie mierzono; uznane za spełnione, dopóki spełnione jest I (EN 13501-2)');
    expect(text).not.toContain('W (promieniowanie) --- 25 min nie osiągnięto');
    // The newest d_e is one thing; the verdict is over the whole test.
    expect(text).toContain('Zgodność pieca d_e 9.50 % (tolerancja ±5.0 %, poza tolerancją)');
    expect(text).toContain('Ocena d_e (EN 1363-1 §5.1.2) niezgodne: poza tolerancją (okresy poniżej)');
    expect(text).toContain('Okresy d_e poza tolerancją');
    expect(text).toContain('Od Do Najgorsze d_e W chwili');
    expect(text).toContain('00:07:00 00:08:30 −16.20 % (tolerancja ±15.0 %) 00:08:00');
    expect(text).toContain('00:25:00 trwa (ostatni odczyt 00:30:30) 9.87 % (tolerancja ±5.8 %) 00:28:20');
    expect(text).toContain('Ciśnienie w piecu 21.5 Pa, cel 20.0 Pa (tolerancja ±3.0 Pa, w tolerancji)');
    expect(text).toContain('Ocena ciśnienia niezgodne: poza tolerancją (okresy poniżej)');
    expect(text).toContain('Okresy ciśnienia poza tolerancją');
    expect(text).toContain('Od Do Najdalej od celu W chwili');
    expect(text).toContain('00:11:00 00:11:40 24.6 Pa (+4.6 Pa, tolerancja ±3.0 Pa) 00:11:20');
    expect(text).toContain('E 30, EI 20');
  });

  it('writes the same in English', async () => {
    const text = await reportText(reportData('en', criteriaView()));
    expect(text).toContain('W (radiation) --- 25 min not measured; deemed met while I holds (EN 13501-2)');
    expect(text).toContain('d_e verdict (EN 1363-1 §5.1.2) non-conforming: out of tolerance (periods below)');
    expect(text).toContain('Periods of d_e out of tolerance');
    expect(text).toContain('From To Worst d_e At');
    expect(text).toContain('00:07:00 00:08:30 −16.20 % (tolerance ±15.0 %) 00:08:00');
    expect(text).toContain('00:25:00 ongoing (last reading 00:30:30) 9.87 % (tolerance ±5.8 %) 00:28:20');
    expect(text).toContain('Furnace pressure 21.5 Pa, target 20.0 Pa (tolerance ±3.0 Pa, within tolerance)');
    expect(text).toContain('Pressure verdict non-conforming: out of tolerance (periods below)');
    expect(text).toContain('From To Furthest from target At');
    expect(text).toContain('00:11:00 00:11:40 24.6 Pa (+4.6 Pa, tolerance ±3.0 Pa) 00:11:20');
  });

  it('never shows a criterion nothing measured as held, says when d_e was always within, and leaves the pressure out without a target', async () => {
    const view = criteriaView();
    const notMeasured = { time: null, minutes: null, reached: false, held_minutes: null, measured: false, deemed: false };
    const text = await reportText(
      reportData('pl', {
        ...view,
        deviation: { ...view.deviation, d_e: 1.2, ok: true, periods: [], conforming: true },
        pressure: null,
        criteria: { E: view.criteria.E, I: notMeasured, W: notMeasured },
        insulation_classes: null,
        classification: 'E 30',
      }),
    );
    expect(text).toContain('I (izolacyjność) --- nie mierzono żadna termopara nie jest liczona do izolacyjności');
    expect(text).toContain('W (promieniowanie) --- nie mierzono brak odczytu promieniowania');
    expect(text).toContain('Ocena d_e (EN 1363-1 §5.1.2) zgodne: w tolerancji od 5. minuty');
    expect(text).not.toContain('Okresy d_e poza tolerancją');
    expect(text).not.toContain('Ciśnienie w piecu');
    expect(text).not.toContain('Ocena ciśnienia');
  });

  it("names no class for a time that reaches none of the element's periods, apart from E under 15 min", async () => {
    const view = criteriaView();
    // E held 20 min: not under 15 min, but under the shortest class of its standard (DIN 4102-5's T 30).
    const data = reportData('pl', { ...view, classification: '', criteria: { ...view.criteria, E: { ...view.criteria.E, minutes: 20, held_minutes: 20 } } });
    const din = await reportText({ ...data, research: { ...data.research, standard: 'DIN_4102_5' } });
    expect(din).toContain('Klasyfikacja brak (poniżej najkrótszego okresu)');
    const short = await reportText(reportData('en', { ...view, classification: '', criteria: { ...view.criteria, E: { ...view.criteria.E, minutes: 12, held_minutes: 12 } } }));
    expect(short).toContain('Classification none (E under 15 min)');
    expect(await reportText(reportData('pl', { ...view, classification: 'T 30' }))).toContain('Klasyfikacja T 30');
  });

  it('shades the pressure band the criteria judge by: none before 5 min, ±5 Pa, ±3 Pa from 10 min, or the profile\'s own', () => {
    expect(pressureBandPieces({ pressure_tolerance_pa: null }, 1830)).toEqual([
      { from: 300, to: 600, tolerance: 5 },
      { from: 600, to: 1830, tolerance: 3 },
    ]);
    expect(pressureBandPieces({ pressure_tolerance_pa: 2 }, 1830)).toEqual([{ from: 300, to: 1830, tolerance: 2 }]);
    expect(pressureBandPieces({ pressure_tolerance_pa: null }, 420)).toEqual([{ from: 300, to: 420, tolerance: 5 }]);
    expect(pressureBandPieces({ pressure_tolerance_pa: null }, 240)).toEqual([]);
    const history = { time: [0, 600, 1200], series: [{ key: 'pressure', kind: 'pressure' as const, min: [], max: [], mean: [18, 21, 24.6] }] };
    const svg = pressureChartSvg({ history, profile: { pressure_target_pa: 20, pressure_tolerance_pa: null }, endS: 1200, marks: [], texts: reportTexts('pl'), width: 500 }).svg;
    expect(svg).toContain('p 20.0 ± 3.0 Pa');
  });
});
