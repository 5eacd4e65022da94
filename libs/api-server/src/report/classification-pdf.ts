import { type CriteriaView, formatTestTime } from '@furnace/contracts';
import { BOLD, REGULAR } from './report-fonts';
import {
  BRAND,
  contentWidth,
  type Doc,
  fields,
  footers,
  heading,
  INK,
  type IssuedStamp,
  MARGIN,
  MUTED,
  newDocument,
  note,
} from './report-layout';
import {
  classificationBox,
  criteriaTable,
  deviationPeriods,
  given,
  insulationText,
  pressureLine,
  pressurePeriods,
  verdict,
  type TestReportFields,
} from './report-pdf';
import { fill } from '@furnace/text';
import {
  classificationStandard,
  curveLabel,
  formatReportDate,
  type ReportLang,
  reportTexts,
  type ReportTexts,
  standardLabel,
} from './report-text';

/*
 * The classification report (docs/behaviour.md §11.4): the element, the classification standard
 * (EN 13501-2, or DIN 4102-5 in its own terms), the test report it rests on, each criterion's time and
 * completed minutes, the furnace's d_e and pressure verdicts and the resulting class. Every number is
 * the kept criteria's (CriteriaService), never computed again here.
 */

/** Everything the classification report shows, read by ReportService. */
export interface ClassificationData {
  lang: ReportLang;
  lab: string;
  research: Pick<
    TestReportFields,
    'sponsor' | 'manufacturer' | 'specimenDescription' | 'reportNumber' | 'reportDate'
  > & {
    name: string;
    standard: string;
    insulation: string | null;
    heatingCurve: string;
  };
  criteria: CriteriaView;
  generatedAt: Date;
  /** A document issued with an approval: its stamp on every page's footer. */
  issued?: IssuedStamp | null;
}

/** "LAB/2026/017 z dnia 01.03.2026"; either part alone when the other is not given; "nie podano" without both. */
export function testReportReference(
  research: Pick<TestReportFields, 'reportNumber' | 'reportDate'>,
  t: ReportTexts,
): string {
  const number = research.reportNumber?.trim() || null;
  const date = research.reportDate === null ? null : formatReportDate(research.reportDate);
  if (number && date) return fill(t.testReportOf, { number, date });
  return number ?? date ?? t.notGiven;
}

/** Lays the classification report out into a new PDF document and ends it (the caller reads the stream). */
export function renderClassification(data: ClassificationData): Doc {
  const t = reportTexts(data.lang);
  const { research, criteria } = data;
  const standard = classificationStandard(research.standard);
  const doc = newDocument({
    lang: data.lang,
    title: `${t.classificationTitle}: ${research.name}`,
    author: data.lab,
    createdAt: data.generatedAt,
    issued: !!data.issued,
  });

  doc.font(BOLD).fontSize(9).fillColor(BRAND).text(data.lab.toUpperCase(), MARGIN, MARGIN, { characterSpacing: 0.5 });
  doc.moveDown(0.2);
  doc.font(BOLD).fontSize(18).fillColor(INK).text(t.classificationTitle);
  doc.font(REGULAR).fontSize(13).text(fill(t.classifiedTo, { standard }));
  doc.moveDown(0.5);

  const rows: [string, string][] = [
    [t.lab, data.lab],
    [t.research, research.name],
    [t.element, standardLabel(research.standard, data.lang)],
  ];
  if (research.insulation) rows.push([t.insulation, insulationText(research.insulation, criteria)]);
  rows.push(
    [t.classificationStandard, standard],
    [t.testReportRef, testReportReference(research, t)],
    [t.sponsor, given(research.sponsor, t)],
    [t.manufacturer, given(research.manufacturer, t)],
    [t.heatingCurve, curveLabel(research.heatingCurve, data.lang)],
    [t.specimenDescription, given(research.specimenDescription, t)],
  );
  fields(doc, rows);
  classificationBox(doc, criteria, t);

  heading(doc, t.performance);
  criteriaTable(doc, criteria, t);

  // The furnace as EN 1363-1 requires it (d_e, §5.1.2; pressure, §5.2.2): over the whole test, with every period outside.
  heading(doc, t.testConditions);
  fields(doc, [[t.deviationVerdict, verdict(criteria.deviation.conforming, t)]]);
  deviationPeriods(doc, criteria.deviation, t);
  const p = criteria.pressure;
  if (p === null) fields(doc, [[t.pressureVerdict, t.pressureNotJudged]]);
  else {
    fields(doc, [
      [t.pressureVerdict, verdict(p.conforming, t)],
      [t.furnacePressure, pressureLine(p, t)],
    ]);
    pressurePeriods(doc, p, t);
  }

  doc.moveDown(0.8);
  if (!criteria.ended) note(doc, fill(t.provisional, { time: formatTestTime(criteria.elapsed) }));
  doc
    .font(REGULAR)
    .fontSize(9)
    .fillColor(MUTED)
    .text(t.classScope, MARGIN, doc.y, { width: contentWidth(doc) })
    .fillColor(INK);

  footers(doc, { lab: data.lab, name: research.name, generatedAt: data.generatedAt, issued: data.issued }, t);
  doc.end();
  return doc;
}
