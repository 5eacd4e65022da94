import { HEATING_CURVE_IDS, TEST_STANDARD_IDS } from '@furnace/criteria';
import { CATALOGUES, fill, LANGUAGES, texts } from './catalogue';

type Tree = { [key: string]: string | Tree };

/** Every text of a tree by its dotted key. */
function entries(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : entries(value, `${prefix}${key}.`),
  );
}

const placeholders = (text: string) => (text.match(/{{\w+}}/g) ?? []).sort();

describe('the catalogue', () => {
  const pl = new Map(entries(CATALOGUES.pl as unknown as Tree));
  const en = new Map(entries(CATALOGUES.en as unknown as Tree));

  it('has every Polish key in English and every English key in Polish', () => {
    expect([...pl.keys()].filter((key) => !en.has(key))).toEqual([]);
    expect([...en.keys()].filter((key) => !pl.has(key))).toEqual([]);
    expect(pl.size).toBeGreaterThan(1000);
  });

  it.each(LANGUAGES)('%s: no text is empty, and every placeholder is {{name}}', (lang) => {
    for (const [key, text] of entries(CATALOGUES[lang] as unknown as Tree)) {
      expect([key, text.trim() === '']).toEqual([key, false]);
      // A placeholder written "{name}" would be printed as it is: i18next and `fill` read only "{{name}}".
      expect([key, text.replace(/{{\w+}}/g, '').match(/[{}]/) !== null]).toEqual([key, false]);
    }
  });

  it('has the same placeholders in both languages', () => {
    for (const [key, text] of pl) expect([key, placeholders(en.get(key) ?? '')]).toEqual([key, placeholders(text)]);
  });

  it('is what texts() gives', () => {
    expect(texts('en').report.page).toBe('Page {{n}} of {{total}}');
    expect(texts('pl').export.sheet.readings).toBe('Odczyty');
  });
});

describe('the names of the test standards and heating curves', () => {
  // The keys are the criteria's id lists: a standard or a curve added there without a name in both languages
  // fails here (and is a type error in criteria.pl.ts, whose keys are the contracts' unions).
  it.each(LANGUAGES)('%s: names every standard and every curve a profile may name, and nothing else', (lang) => {
    const { standard, curve } = CATALOGUES[lang].criteria;
    expect(Object.keys(standard).sort()).toEqual([...TEST_STANDARD_IDS].sort());
    expect(Object.keys(curve).sort()).toEqual([...HEATING_CURVE_IDS].sort());
  });

  it('names them in each language', () => {
    expect(texts('pl').criteria.standard.EN_1634_1).toBe('EN 1634-1 — drzwi lub zamknięcie');
    expect(texts('en').criteria.standard.EN_1634_1).toBe('EN 1634-1 — door or shutter');
    expect(texts('pl').criteria.curve.hydrocarbon).toBe('Krzywa węglowodorowa');
    expect(texts('en').criteria.curve.hydrocarbon).toBe('Hydrocarbon curve');
  });
});

describe('fill', () => {
  it('fills the placeholders it is given and leaves the others', () => {
    expect(fill(texts('pl').report.page, { n: 1, total: 5 })).toBe('Strona 1 z 5');
    expect(fill('{{a}} {{b}}', { a: 'x' })).toBe('x {{b}}');
  });
});
