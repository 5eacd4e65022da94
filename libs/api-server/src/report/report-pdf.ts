import type PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import {
  type CriteriaView,
  type CriterionResult,
  formatDeviation,
  formatTestTime,
  formatValue,
  formatWarsawDateTime,
  type AlarmKind,
  type ObservationKind,
  type PressureView,
  type TolerancePeriod,
} from '@furnace/contracts';
import type { HistoryDto } from '../history/history.dto';
import {
  categoryChartSvg,
  categoryLimits,
  type ChartMark,
  type ChartSvg,
  furnaceChartSvg,
  pressureChartSvg,
  radiationChartSvg,
} from './report-charts';
import { BOLD, REGULAR } from './report-fonts';
import {
  BRAND,
  bottom,
  contentWidth,
  type Doc,
  ensureSpace,
  fields,
  footers,
  heading,
  INK,
  type IssuedStamp,
  listOf,
  MARGIN,
  MUTED,
  newDocument,
  note,
  subheading,
  table,
} from './report-layout';
import { fill } from '@furnace/text';
import {
  curveLabel,
  formatCelsius,
  formatReportDate,
  type ReportLang,
  reportTexts,
  type ReportTexts,
  standardLabel,
} from './report-text';

/*
 * The layout of the report (docs/behaviour.md §11): A4 pages of a header with the test and its
 * profile, the classification, what the lab's test report states (EN 1363-1 §12) with the drawings,
 * the criteria, the charts, the observations, the excluded and failed thermocouples, the photos with the
 * thermocouple positions; a footer "Strona n z N" on every page.
 */

export interface ReportPhoto {
  image: Buffer;
  width: number;
  height: number;
  markers: { name: string; x: number; y: number; size: number; color: string }[];
}

/** What the lab's test report states besides the measurements (EN 1363-1 §12); null: not given. */
export interface TestReportFields {
  sponsor: string | null;
  manufacturer: string | null;
  specimenDescription: string | null;
  conditioning: string | null;
  supportingConstruction: string | null;
  exposedSide: string | null;
  ambientTemperatureC: number | null;
  pressureHeightMm: number | null;
  endReason: string | null;
  deviations: string | null;
  reportNumber: string | null;
  /** YYYY-MM-DD. */
  reportDate: string | null;
}

interface ReportResearch extends TestReportFields {
  name: string;
  startAt: Date;
  endAt: Date;
  standard: string;
  insulation: string | null;
  heatingCurve: string;
  plannedDurationMin: number | null;
  pressureTargetPa: number | null;
  pressureTolerancePa: number | null;
  isRadiance: boolean;
  isPressure: boolean;
  /** Its state as the report is made (docs/behaviour.md, "The permanent record"). */
  state: 'planned' | 'running' | 'ended' | 'reviewed' | 'approved';
  approvedRevision: number | null;
}

/** A drawing of the specimen, listed by name (the file is the lab's attachment, not printed). */
interface ReportDrawing {
  filename: string;
  mime: string;
  size: number;
}

/** Everything the report shows, read by ReportService from the research, criteria, history, thermo and drawings services. */
export interface ReportData {
  lang: ReportLang;
  lab: string;
  research: ReportResearch;
  criteria: CriteriaView;
  history: HistoryDto;
  observations: { time: number; kind: ObservationKind; note: string | null }[];
  /** The alarms raised during the test (docs/behaviour.md §17), oldest first; the section is left out when none. */
  alarms?: { raisedAt: Date; kind: AlarmKind; subject: string; acknowledgedBy: string | null }[];
  exclusions: { thermo_id: number; from_time: number; reason: string }[];
  names: ReadonlyMap<number, string>;
  photos: ReportPhoto[];
  drawings: ReportDrawing[];
  generatedAt: Date;
  /** A document issued with an approval: its stamp on every page's footer. */
  issued?: IssuedStamp | null;
}

/** The end of the test for the report: a test_stopped observation, else the newest frame. */
export function testEnd(data: Pick<ReportData, 'criteria' | 'observations'>): number | null {
  const stopped = data.observations.find((o) => o.kind === 'test_stopped');
  return stopped ? stopped.time : data.criteria.elapsed;
}

/** Seconds between frames over the history's range (its frames evenly spread), null with fewer than two. */
export function samplingInterval(history: Pick<HistoryDto, 'from' | 'to' | 'frames'>): number | null {
  if (history.frames < 2 || !(history.to > history.from)) return null;
  return (history.to - history.from) / (history.frames - 1);
}

/** A thermocouple's name from its markers, or "#id". */
export function thermoName(names: ReadonlyMap<number, string>, thermoId: number | null): string {
  if (thermoId === null) return '—';
  return names.get(thermoId) ?? `#${thermoId}`;
}

/**
 * Lays the report out into a new PDF document and ends it: the caller pipes the document (a readable
 * stream) to the response. Pages are buffered only to write the footers' "n of N" at the end.
 */
export function renderReport(data: ReportData): Doc {
  const t = reportTexts(data.lang);
  const doc = newDocument({
    lang: data.lang,
    title: `${t.title}: ${data.research.name}`,
    author: data.lab,
    createdAt: data.generatedAt,
    issued: !!data.issued,
  });

  const end = testEnd(data) ?? 0;
  const marks: ChartMark[] = data.observations.map((o) => ({
    time: o.time,
    label: o.kind === 'note' && o.note ? o.note.slice(0, 24) : t.observation[o.kind],
  }));

  header(doc, data, t, end);
  testReportSection(doc, data, t);
  criteriaSection(doc, data, t);
  chartsSection(doc, data, t, end, marks);
  observationsSection(doc, data, t);
  alarmsSection(doc, data, t);
  thermocouplesSection(doc, data, t);
  photosSection(doc, data, t);
  footers(doc, { lab: data.lab, name: data.research.name, generatedAt: data.generatedAt, issued: data.issued }, t);
  doc.end();
  return doc;
}

function header(doc: Doc, data: ReportData, t: ReportTexts, end: number): void {
  const { research, criteria, history } = data;
  doc.font(BOLD).fontSize(9).fillColor(BRAND).text(data.lab.toUpperCase(), MARGIN, MARGIN, { characterSpacing: 0.5 });
  doc.moveDown(0.2);
  doc.font(BOLD).fontSize(18).fillColor(INK).text(t.title);
  doc.font(REGULAR).fontSize(13).text(research.name);
  doc.moveDown(0.5);
  // Ignition as the frames date it; none before the first frame at time 0 (the planned start is in the schedule row).
  const ignitionAt = criteria.ignition_at ?? history.ignition_at;
  const ignition = ignitionAt === null ? null : new Date(ignitionAt);
  const sampling = samplingInterval(history);
  const rows: [string, string][] = [
    [t.lab, data.lab],
    [t.ignition, ignition === null ? t.notIgnited : formatWarsawDateTime(ignition)],
    // A test still running has no end yet: its newest reading.
    [
      criteria.ended ? t.end : t.lastReading,
      ignition === null
        ? formatTestTime(end)
        : `${formatWarsawDateTime(new Date(ignition.getTime() + end * 1000))} (${formatTestTime(end)})`,
    ],
    [t.schedule, `${formatWarsawDateTime(research.startAt)} – ${formatWarsawDateTime(research.endAt)}`],
    [
      t.researchState,
      research.approvedRevision === null
        ? t.stateName[research.state]
        : fill(t.approvedAs, { revision: research.approvedRevision }),
    ],
    [t.standard, standardLabel(research.standard, data.lang)],
  ];
  if (research.insulation) rows.push([t.insulation, insulationText(research.insulation, criteria)]);
  rows.push(
    [t.heatingCurve, curveLabel(research.heatingCurve, data.lang)],
    [t.basis, criteria.basis === 'rise' ? t.basisRise : t.basisAbsolute],
    [
      t.t0,
      criteria.t0 === null
        ? '---'
        : `${formatCelsius(criteria.t0)}${criteria.t0_source ? ` (${t.t0Source[criteria.t0_source]})` : ''}`,
    ],
    [
      t.sampling,
      sampling === null ? '---' : fill(t.samplingValue, { s: formatValue(sampling), frames: history.frames }),
    ],
    [t.planned, research.plannedDurationMin === null ? t.none : fill(t.minutes, { n: research.plannedDurationMin })],
  );
  fields(doc, rows);
  classificationBox(doc, criteria, t);
}

/** The classification, large: what the lab copies into its report; a test still running says as of when. */
export function classificationBox(
  doc: Doc,
  criteria: Pick<CriteriaView, 'classification' | 'criteria' | 'ended' | 'elapsed'>,
  t: ReportTexts,
): void {
  doc.moveDown(0.4);
  const y = doc.y;
  const w = contentWidth(doc);
  doc.roundedRect(MARGIN, y, w, 34, 4).fillColor('#e6f4f3').fill();
  doc
    .font(REGULAR)
    .fontSize(9)
    .fillColor(MUTED)
    .text(t.classification, MARGIN + 10, y + 6);
  doc
    .font(BOLD)
    .fontSize(15)
    .fillColor(INK)
    .text(criteria.classification || noClassification(criteria, t), MARGIN + 150, y + 9, { width: w - 160 });
  // A test still running: the class so far, at the newest frame.
  if (!criteria.ended)
    doc
      .font(REGULAR)
      .fontSize(8)
      .fillColor(MUTED)
      .text(fill(t.running, { time: formatTestTime(criteria.elapsed) }), MARGIN + 10, y + 20, { width: 135 });
  doc.y = y + 40;
  doc.font(REGULAR).fontSize(9);
}

/** A field of the test report as printed: its text, or "nie podano" / "not given" when blank. */
export function given(value: string | null, t: Pick<ReportTexts, 'notGiven'>): string {
  return value === null || value.trim() === '' ? t.notGiven : value;
}

/** "1.2 MB", "340 kB": a file's size. */
function fileSize(bytes: number): string {
  return bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1000))} kB`;
}

/**
 * What the lab's test report states besides the measurements (EN 1363-1 §12), each field in its place
 * and a blank one as not given, and the specimen's drawings by name.
 */
function testReportSection(doc: Doc, data: ReportData, t: ReportTexts): void {
  const r = data.research;
  heading(doc, t.testReport);
  const drawings = data.drawings.map(
    (d) =>
      `${d.filename} (${t.drawingKind[d.mime as keyof ReportTexts['drawingKind']] ?? d.mime}, ${fileSize(d.size)})`,
  );
  fields(doc, [
    [t.reportNumber, given(r.reportNumber, t)],
    [t.reportDate, r.reportDate === null ? t.notGiven : formatReportDate(r.reportDate)],
    [t.sponsor, given(r.sponsor, t)],
    [t.manufacturer, given(r.manufacturer, t)],
    [t.specimenDescription, given(r.specimenDescription, t)],
    [t.conditioning, given(r.conditioning, t)],
    [t.supportingConstruction, given(r.supportingConstruction, t)],
    [t.exposedSide, given(r.exposedSide, t)],
    [t.ambientTemperature, r.ambientTemperatureC === null ? t.notGiven : formatCelsius(r.ambientTemperatureC)],
    [
      t.pressureHeight,
      r.pressureHeightMm === null ? t.notGiven : fill(t.millimetres, { n: Math.round(r.pressureHeightMm * 10) / 10 }),
    ],
    [t.endReason, given(r.endReason, t)],
    [t.deviations, given(r.deviations, t)],
    [t.drawings, drawings.length === 0 ? t.noDrawings : drawings.join('\n')],
  ]);
}

/**
 * No class: E under EN 13501-2's shortest period (15 min), or a time that reaches none of the element's
 * own periods (a wall's E from 20 min, DIN 4102-5's T 30).
 */
function noClassification(criteria: Pick<CriteriaView, 'criteria'>, t: ReportTexts): string {
  const e = criteria.criteria.E.minutes ?? criteria.criteria.E.held_minutes;
  return e !== null && e >= 15 ? t.noClassPeriod : t.noClassification;
}

/**
 * A row of the criteria table: time, completed minutes, state. A criterion nothing measured is never
 * shown as held; W without a radiometer shows I's minutes, deemed met while I holds (EN 13501-2).
 */
function criterionRow(key: 'E' | 'I' | 'W', r: CriterionResult, t: ReportTexts, name = t.criterionName[key]): string[] {
  const minutes = r.minutes === null ? '---' : fill(t.minutes, { n: r.minutes });
  if (r.deemed) return [name, formatTestTime(r.time), minutes, t.deemedW];
  if (!r.measured) return [name, '---', t.notMeasured, key === 'E' ? t.notMeasured : t.notMeasuredWhy[key]];
  return [name, formatTestTime(r.time), minutes, r.reached ? t.failedAt : t.notReached];
}

/** The insulation class(es) judged: both for a door whose thermocouples name their zones, else the profile's. */
export function insulationText(profileClass: string, criteria: Pick<CriteriaView, 'insulation_classes'>): string {
  return criteria.insulation_classes ? 'I1, I2' : profileClass;
}

/** The table of E, I (or I1 and I2) and W: time, completed minutes, state; both documents print it. */
export function criteriaTable(
  doc: Doc,
  criteria: Pick<CriteriaView, 'criteria' | 'insulation_classes'>,
  t: ReportTexts,
): void {
  table(
    doc,
    [
      { title: t.criterion, width: 0.3 },
      { title: t.time, width: 0.2 },
      { title: t.completed, width: 0.2 },
      { title: t.state, width: 0.3 },
    ],
    criterionRows(criteria, t),
  );
}

/** The rows of E, I and W; a door judged for both insulation classes (zoned thermocouples) gets I1 and I2 instead of I. */
function criterionRows(criteria: Pick<CriteriaView, 'criteria' | 'insulation_classes'>, t: ReportTexts): string[][] {
  const classes = criteria.insulation_classes;
  return (['E', 'I', 'W'] as const).flatMap((k) =>
    k === 'I' && classes
      ? [
          criterionRow('I', classes.I1, t, `${t.criterionName.I} – I1`),
          criterionRow('I', classes.I2, t, `${t.criterionName.I} – I2`),
        ]
      : [criterionRow(k, criteria.criteria[k], t)],
  );
}

/** "conforming …" / "non-conforming …" / "not judged …": the verdict over the whole test, not the newest frame. */
export function verdict(conforming: boolean | null, t: ReportTexts): string {
  return conforming === null ? t.notJudged : conforming ? t.conforming : t.nonConforming;
}

/** "+7.2", "−1.3", "0.0": a signed value with one decimal and a real minus. */
function signed(value: number): string {
  const size = formatValue(Math.abs(value));
  return `${size === '0.0' ? '' : value < 0 ? '−' : '+'}${size}`;
}

/** The newest pressure against the target: "21.5 Pa, cel 20.0 Pa (tolerancja ±3.0 Pa, w tolerancji)". */
export function pressureLine(p: PressureView, t: ReportTexts): string {
  const value = p.value === null ? '---' : `${formatValue(p.value)} Pa`;
  const against = fill(t.pressureAgainst, { value, target: formatValue(p.target) });
  if (p.tolerance === null || p.ok === null) return against;
  return `${against} (${fill(t.pressureTolerance, { v: formatValue(p.tolerance) })}, ${p.ok ? t.deviationOk : t.deviationBad})`;
}

/**
 * The periods outside a tolerance as table rows: from, to ("ongoing" while still outside at the newest
 * frame), the worst value against the tolerance then, and its time.
 */
function periodRows(
  periods: readonly TolerancePeriod[],
  worst: (p: TolerancePeriod) => string,
  t: ReportTexts,
): string[][] {
  return periods.map((p) => [
    formatTestTime(p.from),
    p.open ? fill(t.ongoing, { time: formatTestTime(p.to) }) : formatTestTime(p.to),
    worst(p),
    formatTestTime(p.worst_time),
  ]);
}

function periodsTable(doc: Doc, title: string, worstTitle: string, rows: string[][], t: ReportTexts): void {
  if (rows.length === 0) return;
  subheading(doc, title);
  table(
    doc,
    [
      { title: t.from, width: 0.18 },
      { title: t.to, width: 0.3 },
      { title: worstTitle, width: 0.34 },
      { title: t.worstAt, width: 0.18 },
    ],
    rows,
  );
}

/** The periods of d_e outside its tolerance, each with the worst d_e then; nothing when there were none. */
export function deviationPeriods(doc: Doc, d: CriteriaView['deviation'], t: ReportTexts): void {
  periodsTable(
    doc,
    t.deviationPeriods,
    t.worstDeviation,
    periodRows(
      d.periods,
      (p) => `${formatDeviation(p.worst)} (${fill(t.tolerance, { v: formatValue(p.worst_tolerance) })})`,
      t,
    ),
    t,
  );
}

/** The periods of the furnace pressure outside its tolerance: the worst reading, and how far from the target it was (what the tolerance is about). */
export function pressurePeriods(doc: Doc, p: PressureView, t: ReportTexts): void {
  const worst = (q: TolerancePeriod) =>
    `${formatValue(p.target + q.worst)} Pa (${signed(q.worst)} Pa, ${fill(t.pressureTolerance, { v: formatValue(q.worst_tolerance) })})`;
  periodsTable(doc, t.pressurePeriods, t.worstPressure, periodRows(p.periods, worst, t), t);
}

function criteriaSection(doc: Doc, data: ReportData, t: ReportTexts): void {
  const c = data.criteria;
  heading(doc, t.criteriaTitle);
  criteriaTable(doc, c, t);
  const limits: string[] = [];
  if (c.limits.mean) limits.push(`${t.limitMean}: ${c.limits.mean.text}`);
  if (c.limits.max) limits.push(`${t.limitMax}: ${c.limits.max.text}`);
  if (c.limits.frame) limits.push(`${t.limitFrame}: ${c.limits.frame.text}`);
  const d = c.deviation;
  // The newest d_e says how the furnace is now; the verdict, whether it ever left its tolerance (EN 1363-1 §5.1.2).
  fields(doc, [
    [t.limits, limits.join('; ') || t.none],
    [
      t.deviation,
      d.d_e === null
        ? '---'
        : `${formatDeviation(d.d_e)}${d.tolerance === null ? '' : ` (${fill(t.tolerance, { v: formatValue(d.tolerance) })}, ${d.ok ? t.deviationOk : t.deviationBad})`}`,
    ],
    [t.deviationVerdict, verdict(d.conforming, t)],
  ]);
  deviationPeriods(doc, d, t);
  const p = c.pressure;
  if (p !== null) {
    fields(doc, [
      [t.furnacePressure, pressureLine(p, t)],
      [t.pressureVerdict, verdict(p.conforming, t)],
    ]);
    pressurePeriods(doc, p, t);
  }
  const counted = c.categories.filter((cat) => cat.role.max || cat.role.mean || cat.role.frame);
  if (counted.length > 0) {
    doc.moveDown(0.3);
    table(
      doc,
      [
        { title: t.category, width: 0.34 },
        { title: t.catMax, width: 0.22 },
        { title: t.catMean, width: 0.22 },
        { title: t.valid, width: 0.22 },
      ],
      counted.map((cat) => [
        cat.type_name,
        withRise(cat.max, cat.max_rise),
        withRise(cat.mean, cat.mean_rise),
        `${cat.valid} / ${cat.thermocouples}`,
      ]),
    );
  }
  subheading(doc, t.failures);
  listOf(
    doc,
    [
      { title: t.criterion, width: 0.25 },
      { title: t.time, width: 0.3 },
      { title: t.category, width: 0.25 },
      { title: t.thermo, width: 0.2 },
    ],
    c.failures.map((f) => [
      f.insulation_class === undefined
        ? t.failureName[f.criterion]
        : `${t.failureName[f.criterion]} (${f.insulation_class})`,
      f.interval_from === null
        ? formatTestTime(f.time)
        : `(${formatTestTime(f.interval_from)}, ${formatTestTime(f.time)}]`,
      f.type_name ?? '—',
      thermoName(data.names, f.thermo_id),
    ]),
    t.noFailures,
  );
}

/** "200.0 °C (+179.5 K)"; a rise that rounds to zero has no sign. */
export function withRise(value: number | null, rise: number | null): string {
  if (value === null) return '---';
  if (rise === null) return formatCelsius(value);
  const size = formatValue(Math.abs(rise));
  return `${formatCelsius(value)} (${size === '0.0' ? '' : rise < 0 ? '−' : '+'}${size} K)`;
}

/** Draws a chart at the current position, full width, on a new page when it does not fit. */
function chart(doc: Doc, title: string, { svg, height }: ChartSvg): void {
  ensureSpace(doc, height + 18);
  doc.font(BOLD).fontSize(9).fillColor(INK).text(title, MARGIN, doc.y);
  const y = doc.y + 2;
  // The charts are laid out in points (assumePt: no px → pt scaling). svg-to-pdfkit's types take the class; it is called with the document.
  SVGtoPDF(doc as unknown as typeof PDFDocument, svg, MARGIN, y, {
    assumePt: true,
    fontCallback: (_family, bold) => (bold ? BOLD : REGULAR),
  });
  doc.font(REGULAR).fontSize(9).fillColor(INK);
  doc.x = MARGIN;
  doc.y = y + height + 6;
}

function chartsSection(doc: Doc, data: ReportData, t: ReportTexts, end: number, marks: ChartMark[]): void {
  const { history, criteria, research } = data;
  // The first chart follows the criteria on the first page when it fits there.
  ensureSpace(doc, 360);
  heading(doc, t.charts);
  if (history.frames === 0) {
    note(doc, t.noData);
    return;
  }
  const width = contentWidth(doc);
  const curveName = curveLabel(research.heatingCurve, data.lang);
  const endS = Math.max(end, history.to);
  chart(
    doc,
    t.furnaceChart,
    furnaceChartSvg({ history, curve: research.heatingCurve as never, endS, marks, texts: t, curveName, width }),
  );
  for (const category of criteria.categories) {
    const limits = categoryLimits(category, criteria.limits);
    if (!limits.max && !limits.mean) continue;
    const title = fill(criteria.basis === 'rise' && criteria.t0 !== null ? t.riseChart : t.absChart, {
      type: category.type_name,
    });
    chart(doc, title, categoryChartSvg({ history, category, criteria, endS, marks, texts: t, width }));
  }
  if (research.isPressure) {
    const profile = {
      pressure_target_pa: research.pressureTargetPa,
      pressure_tolerance_pa: research.pressureTolerancePa,
    };
    chart(doc, t.pressureChart, pressureChartSvg({ history, profile, endS, marks, texts: t, width }));
  }
  if (research.isRadiance) chart(doc, t.radiationChart, radiationChartSvg({ history, endS, marks, texts: t, width }));
}

function observationsSection(doc: Doc, data: ReportData, t: ReportTexts): void {
  heading(doc, t.observations);
  listOf(
    doc,
    [
      { title: t.time, width: 0.16 },
      { title: t.kind, width: 0.34 },
      { title: t.note, width: 0.5 },
    ],
    data.observations.map((o) => [formatTestTime(o.time), t.observation[o.kind], o.note ?? '']),
    t.noObservations,
  );
}

function alarmsSection(doc: Doc, data: ReportData, t: ReportTexts): void {
  const alarms = data.alarms ?? [];
  if (alarms.length === 0) return;
  heading(doc, t.alarms);
  listOf(
    doc,
    [
      { title: t.alarmRaised, width: 0.24 },
      { title: t.kind, width: 0.36 },
      { title: t.alarmSubject, width: 0.12 },
      { title: t.alarmAcknowledgedBy, width: 0.28 },
    ],
    alarms.map((a) => [
      formatWarsawDateTime(a.raisedAt),
      t.alarmKind[a.kind],
      a.subject,
      a.acknowledgedBy ?? t.alarmNotAcknowledged,
    ]),
    '',
  );
}

function thermocouplesSection(doc: Doc, data: ReportData, t: ReportTexts): void {
  heading(doc, t.excluded);
  listOf(
    doc,
    [
      { title: t.thermo, width: 0.25 },
      { title: t.from, width: 0.2 },
      { title: t.reason, width: 0.55 },
    ],
    data.exclusions.map((e) => [thermoName(data.names, e.thermo_id), formatTestTime(e.from_time), e.reason]),
    t.noExcluded,
  );
  heading(doc, t.faulty);
  listOf(
    doc,
    [
      { title: t.thermo, width: 0.25 },
      { title: t.reason, width: 0.75 },
    ],
    data.history.faults.map((f) => [
      thermoName(data.names, f.thermo_id),
      `${t.suspect.fault}: ${fill(t.faultSpan, { from: formatTestTime(f.first_time), to: formatTestTime(f.last_time), frames: f.frames })}`,
    ]),
    t.noFaulty,
  );
  const suspects = data.criteria.suspects.filter((s) => s.reason !== 'fault');
  if (suspects.length > 0) {
    heading(doc, t.suspects);
    table(
      doc,
      [
        { title: t.thermo, width: 0.25 },
        { title: t.time, width: 0.2 },
        { title: t.reason, width: 0.55 },
      ],
      suspects.map((s) => [thermoName(data.names, s.thermo_id), formatTestTime(s.time), t.suspect[s.reason]]),
    );
  }
}

/** Each photo scaled into the page (at most its width and 60 % of its height) with the markers and names drawn on it. */
function photosSection(doc: Doc, data: ReportData, t: ReportTexts): void {
  if (data.photos.length === 0) return;
  doc.addPage();
  heading(doc, t.photos);
  const maxW = contentWidth(doc);
  const maxH = (bottom(doc) - doc.page.margins.top) * 0.6;
  for (const photo of data.photos) {
    const scale = Math.min(maxW / photo.width, maxH / photo.height, 1.5);
    const w = photo.width * scale;
    const h = photo.height * scale;
    ensureSpace(doc, h + 10);
    const x = MARGIN + (maxW - w) / 2;
    const y = doc.y;
    doc.image(photo.image, x, y, { width: w, height: h });
    doc.fontSize(7);
    for (const m of photo.markers) {
      const mx = x + m.x * scale;
      const my = y + m.y * scale;
      const size = Math.max(4, m.size * scale);
      doc.rect(mx, my, size, size).lineWidth(1).fillOpacity(0.35).fillAndStroke(m.color, m.color).fillOpacity(1);
      const label = m.name;
      const lw = doc.widthOfString(label) + 4;
      const lx = Math.min(mx + size + 2, x + w - lw);
      const ly = my + size / 2 - 5;
      doc.rect(lx, ly, lw, 10).fillColor('#ffffff').fillOpacity(0.85).fill().fillOpacity(1);
      doc.fillColor(INK).text(label, lx + 2, ly + 1.5, { lineBreak: false });
    }
    doc.x = MARGIN;
    doc.y = y + h + 12;
  }
}
