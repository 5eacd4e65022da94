import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { auditEn } from './audit.en';
import { auditPl, type AuditTranslation } from './audit.pl';
import { criteriaEn } from './criteria.en';
import { criteriaPl, type CriteriaTranslation } from './criteria.pl';
import { editorEn } from './editor.en';
import { editorPl, type EditorTranslation } from './editor.pl';
import { en } from './en';
import { historyEn } from './history.en';
import { historyPl, type HistoryTranslation } from './history.pl';
import { liveEn } from './live.en';
import { livePl, type LiveTranslation } from './live.pl';
import { pl, type Translation } from './pl';
import { reviewEn } from './review.en';
import { reviewPl, type ReviewTranslation } from './review.pl';

export const LANGUAGES = ['pl', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
const DEFAULT_LANGUAGE: Language = 'pl';
const LANGUAGE_STORAGE_KEY = 'language';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: {
      translation: Translation;
      history: HistoryTranslation;
      live: LiveTranslation;
      criteria: CriteriaTranslation;
      editor: EditorTranslation;
      audit: AuditTranslation;
      review: ReviewTranslation;
    };
  }
}

/** The keys of the validation messages: zod schemas carry these keys; the form translates them. */
export type ValidationKey = `validation.${keyof Translation['validation']}`;

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

function storedLanguage(): Language {
  try {
    const value = globalThis.localStorage?.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(value) ? value : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources: {
    pl: { translation: pl, history: historyPl, live: livePl, criteria: criteriaPl, editor: editorPl, audit: auditPl, review: reviewPl },
    en: { translation: en, history: historyEn, live: liveEn, criteria: criteriaEn, editor: editorEn, audit: auditEn, review: reviewEn },
  },
  lng: storedLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  interpolation: { escapeValue: false }, // React escapes.
  initAsync: false,
  returnNull: false,
});
document.documentElement.lang = i18n.language;
i18n.on('languageChanged', (lng) => {
  document.documentElement.lang = lng;
});

export function setLanguage(language: Language): void {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Private mode: the choice lasts until reload.
  }
  void i18n.changeLanguage(language);
}
