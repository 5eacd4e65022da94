import { exportFilename } from '../history/csv';
import { formatValue } from '@furnace/contracts';
import { classSystemOf, isHeatingCurveId, isTestStandard } from '@furnace/criteria';
import { type Catalogue, type Language as ReportLang, texts } from '@furnace/text';

/*
 * The report's words in Polish and English (the catalogue's `report` namespace, @furnace/text), and the
 * formatting of its numbers (docs/behaviour.md §11): dates in Europe/Warsaw to the second, times since
 * ignition hh:mm:ss, values with one decimal.
 */

export { LANGUAGES as REPORT_LANGS, type Language as ReportLang } from '@furnace/text';

export type ReportTexts = Catalogue['report'];

export function reportTexts(lang: ReportLang): ReportTexts {
  return texts(lang).report;
}

/** A temperature with one decimal and its unit, '---' when unknown. */
export function formatCelsius(value: number | null | undefined): string {
  const text = formatValue(value);
  return text === '---' ? text : `${text} °C`;
}

/** The test standard's name in `lang` (the catalogue's `criteria.standard`); an unknown id as it is. */
export function standardLabel(id: string, lang: ReportLang): string {
  return isTestStandard(id) ? texts(lang).criteria.standard[id] : id;
}

/** The heating curve's name in `lang` (the catalogue's `criteria.curve`); an unknown id as it is. */
export function curveLabel(id: string, lang: ReportLang): string {
  return isHeatingCurveId(id) ? texts(lang).criteria.curve[id] : id;
}

/** The classification standard an element's class is written in: EN 13501-2, or DIN 4102-5 in its own terms. */
export function classificationStandard(standard: string): string {
  return isTestStandard(standard) && classSystemOf(standard).system === 'DIN_4102_5' ? 'DIN 4102-5' : 'EN 13501-2';
}

/** "2026-03-01" (a calendar date, no zone) as the report writes dates: "01.03.2026". */
export function formatReportDate(date: string): string {
  const [y, m, d] = date.split('-');
  return `${d}.${m}.${y}`;
}

/**
 * The PDF's file name: the exports' name (ASCII slug and short id; the name as typed) with the document's
 * prefix ("raport-…" / "report-…", "klasyfikacja-…" / "classification-…").
 */
export function reportFilename(
  researchId: string,
  name: string,
  lang: ReportLang,
  document: 'report' | 'classification' = 'report',
): { ascii: string; utf8: string } {
  const file = exportFilename(researchId, name, 'pdf');
  const prefix =
    document === 'classification'
      ? lang === 'en'
        ? 'classification'
        : 'klasyfikacja'
      : lang === 'en'
        ? 'report'
        : 'raport';
  return { ascii: `${prefix}-${file.ascii}`, utf8: `${prefix}-${file.utf8}` };
}
