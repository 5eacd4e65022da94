import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  CATALOGUES,
  type Catalogue,
  DEFAULT_LANGUAGE,
  isLanguage,
  type Language,
  type Translation,
} from '@furnace/text';

export { isLanguage, type Language, LANGUAGES } from '@furnace/text';
const LANGUAGE_STORAGE_KEY = 'language';

/*
 * The texts are the product's one catalogue per language (@furnace/text, libs/text): every namespace of it is
 * registered, the dashboard's own and those the server writes with (report, export, mail).
 */
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: Catalogue;
  }
}

/** The keys of the validation messages: zod schemas carry these keys; the form translates them. */
export type ValidationKey = `validation.${keyof Translation['validation']}`;

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
  resources: CATALOGUES,
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

/** The language the dashboard is shown in: what the server's files and e-mails for this user are written in (docs/behaviour.md §1). */
export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}

export function setLanguage(language: Language): void {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Private mode: the choice lasts until reload.
  }
  void i18n.changeLanguage(language);
}
