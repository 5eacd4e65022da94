import { historyEn } from './history.en';
import { historyPl } from './history.pl';

type Tree = { [key: string]: string | Tree };

function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) => (typeof value === 'string' ? [`${prefix}${key}`] : keys(value, `${prefix}${key}.`)));
}

describe('history texts', () => {
  it('have the same keys in Polish and English, none empty, with the same placeholders', () => {
    const pl = keys(historyPl as Tree).sort();
    expect(keys(historyEn as Tree).sort()).toEqual(pl);
    const at = (tree: Tree, key: string) => key.split('.').reduce<string | Tree>((node, k) => (node as Tree)[k] as string | Tree, tree) as string;
    for (const key of pl) {
      expect(at(historyPl as Tree, key)).not.toBe('');
      const vars = (text: string) => (text.match(/{{\w+}}/g) ?? []).sort();
      expect([key, vars(at(historyEn as Tree, key))]).toEqual([key, vars(at(historyPl as Tree, key))]);
    }
  });
});
