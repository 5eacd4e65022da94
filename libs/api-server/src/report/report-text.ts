import { exportFilename } from '../history/csv';
import {
  CRITERION_LABELS_EN,
  CRITERION_LABELS_PL,
  formatValue,
  HEATING_CURVES,
  OBSERVATION_LABELS_EN,
  OBSERVATION_LABELS_PL,
  SUSPECT_LABELS_EN,
  SUSPECT_LABELS_PL,
  TEST_STANDARDS,
} from '@furnace/contracts';

/*
 * The report's words in Polish and English, and the formatting of its numbers (docs/behaviour.md §11):
 * dates in Europe/Warsaw to the second, times since ignition hh:mm:ss, values with one decimal.
 */

export const REPORT_LANGS = ['pl', 'en'] as const;
export type ReportLang = (typeof REPORT_LANGS)[number];

const pl = {
  title: 'Raport z badania ogniowego',
  lab: 'Laboratorium',
  research: 'Badanie',
  ignition: 'Zapłon (czas 0)',
  notIgnited: 'jeszcze nie nastąpił',
  end: 'Koniec badania',
  lastReading: 'Ostatni odczyt',
  schedule: 'Harmonogram',
  standard: 'Norma / element',
  insulation: 'Klasa izolacyjności',
  heatingCurve: 'Krzywa nagrzewania',
  basis: 'Podstawa kryteriów',
  basisRise: 'przyrost ponad T0',
  basisAbsolute: 'wartości bezwzględne °C',
  t0: 'T0',
  t0Source: { auto: 'średnia z 60 s przed zapłonem', first_frame: 'z pierwszego odczytu', override: 'wpisana ręcznie' },
  sampling: 'Interwał próbkowania',
  samplingValue: '{s} s ({frames} odczytów)',
  planned: 'Planowany czas badania',
  duration: 'Czas trwania',
  minutes: '{n} min',
  none: '—',
  classification: 'Klasyfikacja',
  noClassification: 'brak (E poniżej 15 min)',
  running: 'badanie trwa: stan na {time}',
  criteriaTitle: 'Kryteria (pełne minuty)',
  criterion: 'Kryterium',
  time: 'Czas',
  completed: 'Pełne minuty',
  state: 'Stan',
  notReached: 'nie osiągnięto',
  failedAt: 'przekroczone',
  criterionName: CRITERION_LABELS_PL,
  failureName: { ...CRITERION_LABELS_PL, W: 'W' },
  limits: 'Granice',
  limitMean: 'średnia',
  limitMax: 'maksimum',
  limitFrame: 'rama',
  deviation: 'Zgodność pieca d_e',
  deviationOk: 'w tolerancji',
  deviationBad: 'poza tolerancją',
  tolerance: 'tolerancja ±{v} %',
  failures: 'Przekroczenia granic',
  noFailures: 'Żadna granica nie została przekroczona',
  thermo: 'Termopara',
  category: 'Kategoria',
  categories: 'Kategorie pomiarowe (koniec badania)',
  catMax: 'Maks.',
  catMean: 'Średnia',
  valid: 'Ważne',
  observations: 'Obserwacje',
  noObservations: 'Brak obserwacji',
  observation: OBSERVATION_LABELS_PL,
  kind: 'Rodzaj',
  note: 'Uwagi',
  excluded: 'Termopary wyłączone z kryteriów',
  noExcluded: 'Brak wyłączeń',
  from: 'Od',
  reason: 'Powód',
  faulty: 'Termopary uszkodzone (odczyt poza zakresem)',
  noFaulty: 'Brak uszkodzonych termopar',
  faultSpan: 'od {from} do {to} ({frames} odczytów)',
  suspects: 'Termopary podejrzane (do oceny)',
  suspect: SUSPECT_LABELS_PL,
  charts: 'Wykresy',
  furnaceChart: 'Średnia temperatura pieca i krzywa normowa',
  furnace: 'Piec (średnia)',
  deviationAxis: 'd_e [%]',
  toleranceBand: 'tolerancja ±',
  riseChart: '{type}: przyrost ponad T0',
  absChart: '{type}: temperatura',
  max: 'maks.',
  mean: 'średnia',
  limitLine: 'granica {v}',
  pressureChart: 'Ciśnienie w piecu',
  pressure: 'Ciśnienie',
  pressureBand: 'p {target} ± {tolerance} Pa',
  radiationChart: 'Promieniowanie',
  radiation: 'Promieniowanie',
  radiationLimit: 'W: {v} kW/m²',
  minutesAxis: 'min',
  photos: 'Rozmieszczenie termopar',
  noData: 'Brak odczytów od zapłonu (czas 0)',
  page: 'Strona {n} z {total}',
  generated: 'Wygenerowano {at}',
};

export type ReportTexts = typeof pl;

const en: ReportTexts = {
  title: 'Fire test report',
  lab: 'Laboratory',
  research: 'Test',
  ignition: 'Ignition (time 0)',
  notIgnited: 'not yet',
  end: 'End of test',
  lastReading: 'Last reading',
  schedule: 'Schedule',
  standard: 'Standard / element',
  insulation: 'Insulation class',
  heatingCurve: 'Heating curve',
  basis: 'Criteria basis',
  basisRise: 'rise above T0',
  basisAbsolute: 'absolute °C',
  t0: 'T0',
  t0Source: { auto: 'mean of the 60 s before ignition', first_frame: 'from the first reading', override: 'set by hand' },
  sampling: 'Sampling interval',
  samplingValue: '{s} s ({frames} readings)',
  planned: 'Planned duration',
  duration: 'Duration',
  minutes: '{n} min',
  none: '—',
  classification: 'Classification',
  noClassification: 'none (E under 15 min)',
  running: 'test running: as of {time}',
  criteriaTitle: 'Criteria (completed minutes)',
  criterion: 'Criterion',
  time: 'Time',
  completed: 'Completed minutes',
  state: 'State',
  notReached: 'not reached',
  failedAt: 'failed',
  criterionName: CRITERION_LABELS_EN,
  failureName: { ...CRITERION_LABELS_EN, W: 'W' },
  limits: 'Limits',
  limitMean: 'mean',
  limitMax: 'maximum',
  limitFrame: 'frame',
  deviation: 'Furnace conformity d_e',
  deviationOk: 'within tolerance',
  deviationBad: 'out of tolerance',
  tolerance: 'tolerance ±{v} %',
  failures: 'Limits exceeded',
  noFailures: 'No limit was exceeded',
  thermo: 'Thermocouple',
  category: 'Category',
  categories: 'Measurement categories (end of test)',
  catMax: 'Max',
  catMean: 'Mean',
  valid: 'Valid',
  observations: 'Observations',
  noObservations: 'No observations',
  observation: OBSERVATION_LABELS_EN,
  kind: 'Kind',
  note: 'Remarks',
  excluded: 'Thermocouples excluded from the criteria',
  noExcluded: 'No exclusions',
  from: 'From',
  reason: 'Reason',
  faulty: 'Failed thermocouples (reading out of range)',
  noFaulty: 'No failed thermocouples',
  faultSpan: 'from {from} to {to} ({frames} readings)',
  suspects: 'Suspect thermocouples (to be judged)',
  suspect: SUSPECT_LABELS_EN,
  charts: 'Charts',
  furnaceChart: 'Mean furnace temperature and the standard curve',
  furnace: 'Furnace (mean)',
  deviationAxis: 'd_e [%]',
  toleranceBand: 'tolerance ±',
  riseChart: '{type}: rise above T0',
  absChart: '{type}: temperature',
  max: 'max',
  mean: 'mean',
  limitLine: 'limit {v}',
  pressureChart: 'Furnace pressure',
  pressure: 'Pressure',
  pressureBand: 'p {target} ± {tolerance} Pa',
  radiationChart: 'Radiation',
  radiation: 'Radiation',
  radiationLimit: 'W: {v} kW/m²',
  minutesAxis: 'min',
  photos: 'Thermocouple positions',
  noData: 'No readings since ignition (time 0)',
  page: 'Page {n} of {total}',
  generated: 'Generated {at}',
};

export function reportTexts(lang: ReportLang): ReportTexts {
  return lang === 'en' ? en : pl;
}

/** Fills "{name}" placeholders. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

/** A temperature with one decimal and its unit, '---' when unknown. */
export function formatCelsius(value: number | null | undefined): string {
  const text = formatValue(value);
  return text === '---' ? text : `${text} °C`;
}

export function standardLabel(id: string, lang: ReportLang): string {
  const info = TEST_STANDARDS.find((s) => s.id === id);
  return info ? (lang === 'en' ? info.label_en : info.label_pl) : id;
}

export function curveLabel(id: string, lang: ReportLang): string {
  const info = HEATING_CURVES.find((c) => c.id === id);
  return info ? (lang === 'en' ? info.label_en : info.label_pl) : id;
}

/** The PDF's file name: the exports' name (ASCII slug and short id; the name as typed) with the report's prefix ("raport-…" / "report-…"). */
export function reportFilename(researchId: string, name: string, lang: ReportLang): { ascii: string; utf8: string } {
  const file = exportFilename(researchId, name, 'pdf');
  const prefix = lang === 'en' ? 'report' : 'raport';
  return { ascii: `${prefix}-${file.ascii}`, utf8: `${prefix}-${file.utf8}` };
}
