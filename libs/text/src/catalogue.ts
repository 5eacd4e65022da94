import { auditEn } from './audit.en';
import { auditPl } from './audit.pl';
import { criteriaEn } from './criteria.en';
import { criteriaPl } from './criteria.pl';
import { editorEn } from './editor.en';
import { editorPl } from './editor.pl';
import { exportEn } from './export.en';
import { exportPl } from './export.pl';
import { historyEn } from './history.en';
import { historyPl } from './history.pl';
import { labEn } from './lab.en';
import { labPl } from './lab.pl';
import { liveEn } from './live.en';
import { livePl } from './live.pl';
import { mailEn } from './mail.en';
import { mailPl } from './mail.pl';
import { reportEn } from './report.en';
import { reportPl } from './report.pl';
import { reviewEn } from './review.en';
import { reviewPl } from './review.pl';
import { translationEn } from './translation.en';
import { translationPl } from './translation.pl';

/*
 * One catalogue per language: every text the product shows or writes, by namespace (i18next's: the
 * dashboard registers its namespaces from here; the server reads `report`, `export` and `mail`).
 * Placeholders are i18next's "{{name}}" everywhere (the server fills them with `fill`).
 * Plain objects only: the dashboard's start-up bundle loads this, and its Content-Security-Policy
 * forbids anything that evaluates code.
 */

export const LANGUAGES = ['pl', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The installation's language: the dashboard's until the user picks one, and the e-mails' whose reader has none (docs/behaviour.md §1). */
export const DEFAULT_LANGUAGE: Language = 'pl';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

const pl = {
  translation: translationPl,
  history: historyPl,
  live: livePl,
  criteria: criteriaPl,
  editor: editorPl,
  audit: auditPl,
  review: reviewPl,
  lab: labPl,
  report: reportPl,
  export: exportPl,
  mail: mailPl,
};

export type Catalogue = typeof pl;

/** English has every key Polish has: a key missing here is a type error (and catalogue.spec.ts checks the placeholders). */
const en: Catalogue = {
  translation: translationEn,
  history: historyEn,
  live: liveEn,
  criteria: criteriaEn,
  editor: editorEn,
  audit: auditEn,
  review: reviewEn,
  lab: labEn,
  report: reportEn,
  export: exportEn,
  mail: mailEn,
};

export const CATALOGUES: Readonly<Record<Language, Catalogue>> = { pl, en };

/** The texts of one language. */
export function texts(lang: Language): Catalogue {
  return CATALOGUES[lang];
}

/** Fills "{{name}}" placeholders (i18next's syntax); an unknown name is left as it is. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}
