import {
  CRITERION_LABELS_EN,
  CRITERION_LABELS_PL,
  OBSERVATION_LABELS_EN,
  OBSERVATION_LABELS_PL,
  SUSPECT_LABELS_EN,
  SUSPECT_LABELS_PL,
} from '@furnace/contracts';
import { criteriaEn } from './criteria.en';
import { criteriaPl } from './criteria.pl';
import { i18n } from './index';

type Tree = { [key: string]: string | Tree };

function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) => (typeof value === 'string' ? [`${prefix}${key}`] : keys(value, `${prefix}${key}.`)));
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

  // The server's exports and reports name them from @furnace/contracts (labels.ts); the dashboard keeps
  // its own copy (its start-up bundle does not load that library): the two must not drift apart.
  it('names the criteria, suspects and observations as the exports and reports do', () => {
    for (const [texts, criterion, suspect, observation] of [
      [criteriaPl, CRITERION_LABELS_PL, SUSPECT_LABELS_PL, OBSERVATION_LABELS_PL],
      [criteriaEn, CRITERION_LABELS_EN, SUSPECT_LABELS_EN, OBSERVATION_LABELS_EN],
    ] as const) {
      expect(texts.criterion).toEqual(criterion);
      expect(texts.suspect).toEqual(suspect);
      expect(texts.observation).toEqual(expect.objectContaining(observation));
    }
  });
});
