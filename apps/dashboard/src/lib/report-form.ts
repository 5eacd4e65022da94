import { z } from 'zod';
import type { Research, ResearchUpdate } from '../api/research-types';
import type { ValidationKey } from '../i18n';

/*
 * What the lab's test report states (EN 1363-1 §12) as a research form edits it (create page and edit
 * page): texts as typed ('' for not given), the two numbers as a number or '', the date as a date
 * input's YYYY-MM-DD or ''. The limits are the API's (libs/api-server/src/research/research.dto.ts).
 */

const msg = (key: ValidationKey) => key;

const text = (max: 64 | 255 | 2000 | 4000 | 10000) => z.string().max(max, msg(`validation.textMax${max}`));

/** '' (not given) or a number within [min, max]. */
const optionalNumber = (min: number, max: number, message: ValidationKey) =>
  z.union([z.literal(''), z.number(msg(message)).min(min, msg(message)).max(max, msg(message))]);

/** The lengths the inputs stop at, per field (the API's). */
export const REPORT_TEXT_MAX = {
  report_number: 64,
  sponsor: 255,
  manufacturer: 255,
  exposed_side: 255,
  specimen_description: 10000,
  conditioning: 2000,
  supporting_construction: 2000,
  end_reason: 2000,
  deviations: 4000,
} as const;

export const testReportFormSchema = z.object({
  report_number: text(REPORT_TEXT_MAX.report_number),
  report_date: z.union([z.literal(''), z.string().regex(/^\d{4}-\d{2}-\d{2}$/, msg('validation.reportDateInvalid'))]),
  sponsor: text(REPORT_TEXT_MAX.sponsor),
  manufacturer: text(REPORT_TEXT_MAX.manufacturer),
  specimen_description: text(REPORT_TEXT_MAX.specimen_description),
  conditioning: text(REPORT_TEXT_MAX.conditioning),
  supporting_construction: text(REPORT_TEXT_MAX.supporting_construction),
  exposed_side: text(REPORT_TEXT_MAX.exposed_side),
  ambient_temperature_c: optionalNumber(-50, 100, 'validation.ambientInvalid'),
  pressure_height_mm: optionalNumber(0, 10000, 'validation.pressureHeightInvalid'),
  end_reason: text(REPORT_TEXT_MAX.end_reason),
  deviations: text(REPORT_TEXT_MAX.deviations),
});
export type TestReportValues = z.input<typeof testReportFormSchema>;

type TextField = keyof typeof REPORT_TEXT_MAX;
type ReportBody = Required<
  Pick<ResearchUpdate, TextField | 'report_date' | 'ambient_temperature_c' | 'pressure_height_mm'>
>;

const TEXT_FIELDS = Object.keys(REPORT_TEXT_MAX) as TextField[];

/** A research's report fields (none for a new one) as form values: '' where not given. */
export function toTestReportValues(research: Partial<Research> | null): TestReportValues {
  const texts = Object.fromEntries(TEXT_FIELDS.map((key) => [key, research?.[key] ?? ''])) as Record<TextField, string>;
  return {
    ...texts,
    report_date: research?.report_date ?? '',
    ambient_temperature_c: research?.ambient_temperature_c ?? '',
    pressure_height_mm: research?.pressure_height_mm ?? '',
  };
}

/** The form's values as the create/update body's report fields: a blank one as null (not given). */
export function toTestReportBody(values: TestReportValues): ReportBody {
  const texts = Object.fromEntries(
    TEXT_FIELDS.map((key) => [key, values[key].trim() === '' ? null : values[key].trim()]),
  ) as Record<TextField, string | null>;
  return {
    ...texts,
    report_date: values.report_date === '' ? null : values.report_date,
    ambient_temperature_c: values.ambient_temperature_c === '' ? null : values.ambient_temperature_c,
    pressure_height_mm: values.pressure_height_mm === '' ? null : values.pressure_height_mm,
  };
}
