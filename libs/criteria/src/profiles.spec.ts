import { criticalFor, MEASUREMENT_TYPE_NAMES } from '@furnace/contracts';
import { DEFAULT_TEST_PROFILE, profileRules, testProfileSchema, TEST_STANDARDS } from './profiles';
import type { TestProfile } from '@furnace/contracts';

const profile = (over: Partial<TestProfile>): TestProfile => ({ ...DEFAULT_TEST_PROFILE, ...over });

describe('profileRules', () => {
  it('rise basis: mean 140 K, max 180 K, frame 360 K (I2, the door default) and 180 K (I1)', () => {
    expect(profileRules(profile({})).limits).toEqual({ mean: 140, max: 180, frame: 360 });
    expect(profileRules(profile({ standard: 'EN_1634_1', insulation: null })).limits.frame).toBe(360);
    expect(profileRules(profile({ standard: 'EN_1634_1', insulation: 'I2' })).limits.frame).toBe(360);
    expect(profileRules(profile({ standard: 'EN_1634_1', insulation: 'I1' })).limits.frame).toBe(180);
    // I1/I2 means nothing outside EN 1634-1.
    expect(profileRules(profile({ standard: 'EN_1364_1', insulation: 'I1' })).limits.frame).toBe(360);
  });

  it('every standard names a role for each of the twelve types', () => {
    for (const { id } of TEST_STANDARDS) {
      const rules = profileRules(profile({ standard: id }));
      expect(Object.keys(rules.byType).sort()).toEqual([...MEASUREMENT_TYPE_NAMES].sort());
      expect(rules.byType['Tśr i Tmax']).toEqual({ mean: true, max: true, frame: false });
      expect(rules.byType['Tmax ościeżnicy']).toEqual({ mean: false, max: false, frame: true });
      expect(rules.byType['T']).toEqual({ mean: false, max: false, frame: false });
      expect(rules.basis).toBe('rise');
    }
  });

  it('absolute basis reproduces the spec critical values as °C', () => {
    const rules = profileRules(profile({ criteria_basis: 'absolute', standard: 'EN_1634_1', insulation: 'I1' }));
    expect(rules.basis).toBe('absolute');
    for (const name of MEASUREMENT_TYPE_NAMES) {
      const role = rules.byType[name]!;
      const critical = criticalFor(name);
      const maxLimit = role.frame ? rules.limits.frame : role.max ? rules.limits.max : null;
      expect([name, maxLimit, role.mean ? rules.limits.mean : null]).toEqual([name, critical.max, critical.mean]);
    }
  });
});

describe('testProfileSchema', () => {
  it('accepts the default and names the wrong field', () => {
    expect(testProfileSchema.parse(DEFAULT_TEST_PROFILE)).toEqual(DEFAULT_TEST_PROFILE);
    const result = testProfileSchema.safeParse({ ...DEFAULT_TEST_PROFILE, heating_curve: 'iso' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['heating_curve']);
  });
});
