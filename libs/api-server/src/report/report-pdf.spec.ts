import type { CriteriaView } from '@furnace/contracts';
import { documentText, pdfPages } from '../../test/pdf';
import { criteriaView, limits } from '../../test/report-fixtures';
import {
  categoryChartSvg,
  categoryLimits,
  furnaceChartSvg,
  pressureBandPieces,
  pressureChartSvg,
  seriesPoints,
} from './report-charts';
import {
  type ReportData,
  renderReport,
  samplingInterval,
  testEnd,
  type TestReportFields,
  thermoName,
  withRise,
} from './report-pdf';
import { type ReportLang, reportTexts } from './report-text';

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

const category = (role: { mean: boolean; max: boolean; frame: boolean }) => ({
  type_name: 'Tśr i Tmax',
  role,
  max: null,
  mean: null,
  max_rise: null,
  mean_rise: null,
  valid: 2,
  thermocouples: 2,
});
const history = {
  time: [-10, 0, 60, 120],
  series: [
    { key: 'pk', kind: 'pk' as const, min: [], max: [], mean: [20, 20, 349, 465] },
    {
      key: 'category:Tśr i Tmax:max',
      kind: 'category_max' as const,
      type_name: 'Tśr i Tmax',
      min: [],
      max: [],
      mean: [20, 20.5, 30.5, null],
    },
  ],
};

describe('report layout', () => {
  it('ends the test at a test_stopped observation, else at the newest frame', () => {
    expect(testEnd({ criteria: { elapsed: 3600 } as never, observations: [] })).toBe(3600);
    expect(
      testEnd({
        criteria: { elapsed: 3600 } as never,
        observations: [{ time: 3000, kind: 'test_stopped', note: null }],
      }),
    ).toBe(3000);
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
    expect(categoryLimits(category({ mean: true, max: true, frame: false }), limits)).toEqual({
      max: limits.max,
      mean: limits.mean,
    });
    expect(categoryLimits(category({ mean: false, max: false, frame: true }), limits)).toEqual({
      max: limits.frame,
      mean: null,
    });
    expect(categoryLimits(category({ mean: false, max: false, frame: false }), limits)).toEqual({
      max: null,
      mean: null,
    });
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
    const rise = categoryChartSvg({
      history,
      category: category({ mean: true, max: true, frame: false }),
      criteria: { t0: 20.5, basis: 'rise', limits },
      endS: 120,
      marks: [{ time: 60, label: 'Notatka' }],
      texts,
      width: 500,
    }).svg;
    expect(rise).toMatch(/^<svg/);
    expect(rise).not.toContain('<image');
    expect(rise).toContain('granica 180.0 K');
    expect(rise).toContain('granica 140.0 K');
    expect(rise).toContain('Notatka');
    const absolute = categoryChartSvg({
      history,
      category: category({ mean: true, max: true, frame: false }),
      criteria: { t0: 20.5, basis: 'absolute', limits },
      endS: 120,
      marks: [],
      texts,
      width: 500,
    }).svg;
    expect(absolute).toContain('granica 200.5 °C');
    const furnace = furnaceChartSvg({
      history,
      curve: 'iso834',
      endS: 120,
      marks: [],
      texts,
      curveName: 'Krzywa standardowa ISO 834',
      width: 500,
    }).svg;
    expect(furnace).toContain('Krzywa standardowa ISO 834');
    expect(furnace).toContain('d_e [%]');
  });
});

function reportData(lang: ReportLang, criteria: CriteriaView): ReportData {
  return {
    lang,
    lab: 'Laboratorium',
    research: {
      name: 'Ściana',
      state: 'ended',
      approvedRevision: null,
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
      ...NO_REPORT_FIELDS,
    },
    criteria,
    // No readings: the charts' section says so, the criteria are the view's.
    history: {
      research_id: 'r',
      from: 0,
      to: 0,
      ignition_at: criteria.ignition_at,
      last_time: null,
      frames: 0,
      thermo_ids: [],
      bucket_seconds: 0,
      time: [],
      series: [],
      faults: [],
    },
    observations: [],
    exclusions: [],
    names: new Map([[1, 'T1']]),
    photos: [],
    drawings: [],
    generatedAt: new Date('2026-03-01T09:00:00Z'),
  };
}

/** The report's text as pdf.js reads it. */
const reportText = (data: ReportData) => documentText(renderReport(data));

describe('the report of the criteria', () => {
  it('gives the d_e and pressure verdicts, every period out of tolerance, I measured and W deemed, in Polish', async () => {
    const text = await reportText(reportData('pl', criteriaView()));
    expect(text).toContain('E (szczelność) --- 30 min nie osiągnięto');
    expect(text).toContain('I (izolacyjność) 00:25:00 25 min przekroczone');
    expect(text).toContain(
      'W (promieniowanie) --- 25 min nie mierzono; uznane za spełnione, dopóki spełnione jest I (EN 13501-2)',
    );
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
    const notMeasured = {
      time: null,
      minutes: null,
      reached: false,
      held_minutes: null,
      measured: false,
      deemed: false,
    };
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

  it('a door judged for I1 and I2: a row for each class, and each leaf or frame failure names its class', async () => {
    const view = criteriaView();
    const failed = (time: number, minutes: number) => ({
      time,
      minutes,
      reached: true,
      held_minutes: minutes,
      measured: true,
      deemed: false,
    });
    const data = reportData('pl', {
      ...view,
      insulation_classes: { I1: failed(2085, 34), I2: failed(3290, 54) },
      failures: [
        {
          criterion: 'I_max',
          time: 2085,
          interval_from: null,
          thermo_id: 2,
          type_name: 'Tmax',
          insulation_class: 'I1',
        },
      ],
      classification: 'E 60, EI1 30, EI2 45, EW 60',
    });
    const text = await reportText({ ...data, research: { ...data.research, standard: 'EN_1634_1', insulation: 'I2' } });
    expect(text).toContain('I (izolacyjność) – I1 00:34:45 34 min przekroczone');
    expect(text).toContain('I (izolacyjność) – I2 00:54:50 54 min przekroczone');
    expect(text).toContain('I – maksimum (I1) 00:34:45 Tmax');
    expect(text).toContain('Klasa izolacyjności I1, I2');
  });

  it("names no class for a time that reaches none of the element's periods, apart from E under 15 min", async () => {
    const view = criteriaView();
    // E held 20 min: not under 15 min, but under the shortest class of its standard (DIN 4102-5's T 30).
    const data = reportData('pl', {
      ...view,
      classification: '',
      criteria: { ...view.criteria, E: { ...view.criteria.E, minutes: 20, held_minutes: 20 } },
    });
    const din = await reportText({ ...data, research: { ...data.research, standard: 'DIN_4102_5' } });
    expect(din).toContain('Klasyfikacja brak (poniżej najkrótszego okresu)');
    const short = await reportText(
      reportData('en', {
        ...view,
        classification: '',
        criteria: { ...view.criteria, E: { ...view.criteria.E, minutes: 12, held_minutes: 12 } },
      }),
    );
    expect(short).toContain('Classification none (E under 15 min)');
    expect(await reportText(reportData('pl', { ...view, classification: 'T 30' }))).toContain('Klasyfikacja T 30');
  });

  it("shades the pressure band the criteria judge by: none before 5 min, ±5 Pa, ±3 Pa from 10 min, or the profile's own", () => {
    expect(pressureBandPieces({ pressure_tolerance_pa: null }, 1830)).toEqual([
      { from: 300, to: 600, tolerance: 5 },
      { from: 600, to: 1830, tolerance: 3 },
    ]);
    expect(pressureBandPieces({ pressure_tolerance_pa: 2 }, 1830)).toEqual([{ from: 300, to: 1830, tolerance: 2 }]);
    expect(pressureBandPieces({ pressure_tolerance_pa: null }, 420)).toEqual([{ from: 300, to: 420, tolerance: 5 }]);
    expect(pressureBandPieces({ pressure_tolerance_pa: null }, 240)).toEqual([]);
    const history = {
      time: [0, 600, 1200],
      series: [{ key: 'pressure', kind: 'pressure' as const, min: [], max: [], mean: [18, 21, 24.6] }],
    };
    const svg = pressureChartSvg({
      history,
      profile: { pressure_target_pa: 20, pressure_tolerance_pa: null },
      endS: 1200,
      marks: [],
      texts: reportTexts('pl'),
      width: 500,
    }).svg;
    expect(svg).toContain('p 20.0 ± 3.0 Pa');
  });
});

/** A door's test report as a lab fills it in: every field but the deviations. */
const DOOR_REPORT: TestReportFields = {
  sponsor: 'Drzwi-Pol Sp. z o.o., ul. Leśna 5, 00-001 Warszawa',
  manufacturer: 'Stalbud S.A.',
  specimenDescription:
    'Drzwi stalowe jednoskrzydłowe, 1000 × 2100 mm, skrzydło 60 mm wypełnione wełną mineralną 120 kg/m³.',
  conditioning: '28 dni w 23 °C i 50 % RH; wilgotność wełny 0,8 %',
  supportingConstruction: 'Ściana z bloczków betonu komórkowego 600 kg/m³, 150 mm; kotwy stalowe co 600 mm',
  exposedSide: 'strona zawiasów',
  ambientTemperatureC: 19.4,
  pressureHeightMm: 500,
  endReason: 'utrata szczelności (zapłon tamponu bawełnianego)',
  deviations: null,
  reportNumber: 'LAB/2026/017',
  reportDate: '2026-03-14',
};
const DRAWINGS = [
  { filename: 'rys-1 przekrój.pdf', mime: 'application/pdf', size: 1_240_000 },
  { filename: 'widok.png', mime: 'image/png', size: 340_200 },
];

describe("the test report's fields (EN 1363-1 §12)", () => {
  const withFields = (lang: ReportLang, fields: TestReportFields, drawings = DRAWINGS): ReportData => {
    const data = reportData(lang, criteriaView());
    return { ...data, research: { ...data.research, ...fields }, drawings };
  };

  it('prints each field in its place, a blank one as "nie podano", and the drawings by name', async () => {
    const text = await reportText(withFields('pl', DOOR_REPORT));
    expect(text).toContain(
      'Sprawozdanie z badania (EN 1363-1 §12) ' +
        'Numer sprawozdania LAB/2026/017 ' +
        'Data sprawozdania 14.03.2026 ' +
        'Zleceniodawca Drzwi-Pol Sp. z o.o., ul. Leśna 5, 00-001 Warszawa ' +
        'Producent Stalbud S.A. ' +
        'Opis próbki Drzwi stalowe jednoskrzydłowe, 1000 × 2100 mm, skrzydło 60 mm wypełnione wełną mineralną 120 kg/m³. ' +
        'Kondycjonowanie i zawartość wilgoci 28 dni w 23 °C i 50 % RH; wilgotność wełny 0,8 % ' +
        'Konstrukcja wsporcza i mocowanie Ściana z bloczków betonu komórkowego 600 kg/m³, 150 mm; kotwy stalowe co 600 mm ' +
        'Strona nagrzewana strona zawiasów ' +
        'Temperatura otoczenia na początku badania 19.4 °C ' +
        'Wysokość pomiaru ciśnienia w piecu 500 mm ' +
        'Przyczyna zakończenia badania utrata szczelności (zapłon tamponu bawełnianego) ' +
        'Odstępstwa od metody badania nie podano ' +
        'Rysunki próbki rys-1 przekrój.pdf (PDF, 1.2 MB) widok.png (obraz PNG, 340 kB)',
    );
    // The section comes before the criteria, after the header and its class.
    expect(text.indexOf('Klasyfikacja E 30, EI 20')).toBeLessThan(text.indexOf('Sprawozdanie z badania'));
    expect(text.indexOf('Rysunki próbki')).toBeLessThan(text.indexOf('Kryteria (pełne minuty)'));
  });

  it('writes the same in English; a research nobody filled in has every field not given and no drawings', async () => {
    const en = await reportText(withFields('en', DOOR_REPORT));
    expect(en).toContain(
      'Test report (EN 1363-1 §12) Report number LAB/2026/017 Report date 14.03.2026 Sponsor Drzwi-Pol',
    );
    expect(en).toContain(
      'Exposed side strona zawiasów Ambient temperature at the start 19.4 °C Furnace pressure measurement height 500 mm',
    );
    expect(en).toContain(
      'Deviations from the test method not given Drawings of the specimen rys-1 przekrój.pdf (PDF, 1.2 MB) widok.png (PNG image, 340 kB)',
    );

    const blank = await reportText(withFields('pl', NO_REPORT_FIELDS, []));
    const section = blank.slice(blank.indexOf('Sprawozdanie z badania'), blank.indexOf('Kryteria (pełne minuty)'));
    expect(section.match(/nie podano/g)).toHaveLength(12);
    expect(section).toContain('Rysunki próbki brak rysunków');
  });

  it('runs a long description onto the next page under its label, and the report goes on after it', async () => {
    const sentence =
      'Skrzydło z blachy stalowej 1,5 mm, wypełnienie z wełny mineralnej, uszczelka pęczniejąca 2 × 10 mm na obwodzie. ';
    const long = `${sentence.repeat(90)}Koniec opisu.`;
    const doc = renderReport(withFields('pl', { ...DOOR_REPORT, specimenDescription: long }));
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve, reject) => {
      doc.on('data', (chunk: Buffer) => chunks.push(chunk));
      doc.on('end', resolve);
      doc.on('error', reject);
    });
    const pages = await pdfPages(Buffer.concat(chunks));
    const first = pages.findIndex((p) => p.includes('Opis próbki'));
    const end = pages.findIndex((p) => p.includes('Koniec opisu.'));
    expect(end).toBeGreaterThan(first);
    // Nothing of it is lost or written over the next field.
    const text = pages.join(' ').replace(/\s+/g, ' ');
    expect(text).toContain('Koniec opisu. Kondycjonowanie i zawartość wilgoci');
    expect(text.split('uszczelka pęczniejąca').length - 1).toBe(90);
  });
});

describe("the test's state and an issued document's stamp", () => {
  const ISSUED = {
    revision: 2,
    reviewedBy: 'reviewer@lab.example',
    reviewedAt: new Date('2026-03-02T09:00:00Z'),
    approvedBy: 'approver@lab.example',
    approvedAt: new Date('2026-03-02T10:30:00Z'),
    dataSha256: 'a3f1'.repeat(16),
  };

  it("states the test's state in the header; a document made now has no stamp", async () => {
    const text = await reportText(reportData('pl', criteriaView()));
    expect(text).toContain('Stan badania zakończone');
    expect(text).not.toContain('Rewizja');
    const approved = reportData('en', criteriaView());
    const en = await reportText({
      ...approved,
      research: { ...approved.research, state: 'approved', approvedRevision: 2 },
    });
    expect(en).toContain('State of the test approved, revision 2');
  });

  it('writes the revision, the reviewer, the approver and the whole hash on every page', async () => {
    const data = reportData('pl', criteriaView());
    const doc = renderReport({
      ...data,
      research: { ...data.research, state: 'approved', approvedRevision: 2 },
      issued: ISSUED,
    });
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve, reject) => {
      doc.on('data', (chunk: Buffer) => chunks.push(chunk));
      doc.on('end', resolve);
      doc.on('error', reject);
    });
    const pages = await pdfPages(Buffer.concat(chunks));
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) {
      expect(page).toContain(
        'Rewizja 2 · sprawdzenie: reviewer@lab.example, 02.03.2026, 10:00:00 · zatwierdzenie: approver@lab.example, 02.03.2026, 11:30:00',
      );
      expect(page).toContain(`SHA-256 surowych danych badania: ${ISSUED.dataSha256}`);
    }
  });
});
