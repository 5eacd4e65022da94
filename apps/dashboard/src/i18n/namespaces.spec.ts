import { i18n } from './index';

type Tree = { [key: string]: string | Tree };

/** Every text of a namespace by its dotted key. */
function texts(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : texts(value, `${prefix}${key}.`),
  );
}

const placeholders = (text: string) => (text.match(/{{\w+}}/g) ?? []).sort();

describe('every namespace of texts', () => {
  const namespaces = Object.keys(i18n.options.resources?.pl ?? {});

  it('is there in both languages', () => {
    expect(namespaces).toEqual(expect.arrayContaining(['translation', 'editor']));
    expect(Object.keys(i18n.options.resources?.en ?? {}).sort()).toEqual([...namespaces].sort());
  });

  it.each(namespaces)('%s: has the same keys and placeholders in English as in Polish, none empty', (ns) => {
    const pl = new Map(texts(i18n.options.resources?.pl?.[ns] as Tree));
    const en = new Map(texts(i18n.options.resources?.en?.[ns] as Tree));
    expect([...en.keys()].sort()).toEqual([...pl.keys()].sort());
    for (const [key, text] of pl) {
      expect([key, text.trim() === '']).toEqual([key, false]);
      expect([key, placeholders(en.get(key) ?? '')]).toEqual([key, placeholders(text)]);
    }
  });
});
