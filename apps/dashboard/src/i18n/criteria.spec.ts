import { OBSERVATION_KINDS } from '@furnace/criteria';
import { CATALOGUES } from '@furnace/text';
import { i18n } from './index';

const { criteria: criteriaPl } = CATALOGUES.pl;
const { criteria: criteriaEn } = CATALOGUES.en;

type Tree = { [key: string]: string | Tree };

function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keys(value, `${prefix}${key}.`),
  );
}

describe('the criteria namespace', () => {
  it('has the same keys in Polish and English, registered and none empty', () => {
    expect(keys(criteriaEn as Tree).sort()).toEqual(keys(criteriaPl as Tree).sort());
    for (const key of keys(criteriaPl as Tree)) {
      expect(i18n.getResource('pl', 'criteria', key)).toEqual(expect.stringMatching(/\S/));
      expect(i18n.getResource('en', 'criteria', key)).toEqual(expect.stringMatching(/\S/));
    }
  });

  it('names every observation kind and criterion', () => {
    const t = i18n.getFixedT('en', 'criteria');
    expect(t('observation.cotton_pad')).toBe('Cotton pad ignited');
    expect(t('observation.gap_25mm')).toBe('25 mm gap gauge');
    expect(t('criterion.I_mean')).toBe('I – mean');
  });

  it('names every observation kind the engine knows, in both languages (the reports and exports read these names too)', () => {
    for (const lng of ['pl', 'en']) {
      for (const kind of OBSERVATION_KINDS)
        expect([lng, kind, i18n.exists(`criteria:observation.${kind}`, { lng })]).toEqual([lng, kind, true]);
    }
  });
});
