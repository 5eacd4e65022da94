import {
  MEASUREMENT_TYPES,
  MEASUREMENT_TYPE_NAMES,
  criticalFor,
  isMeasurementTypeName,
  measurementType,
  measurementTypeNameSchema,
} from './measurement-types';

describe('measurement types', () => {
  it('lists the twelve names of docs/behaviour.md §9 exactly, in order', () => {
    expect(MEASUREMENT_TYPE_NAMES).toEqual([
      'Tśr i Tmax',
      'Tśr i Tmax dyskretna',
      'Tmax',
      'TDin',
      'Tmax dyskretna',
      'Tmax 20mm wolny koniec',
      'Tmax uzup',
      'Tmax dyskretna uzup',
      'Tmax ościeżnicy',
      'Tmax obwod',
      'T kątowników',
      'T',
    ]);
  });

  it('gives the critical values of docs/behaviour.md §9, null where there is none', () => {
    expect(criticalFor('Tśr i Tmax')).toEqual({ max: 180, mean: 140 });
    expect(criticalFor('Tśr i Tmax dyskretna')).toEqual({ max: 180, mean: 140 });
    expect(criticalFor('Tmax')).toEqual({ max: 180, mean: null });
    expect(criticalFor('Tmax ościeżnicy')).toEqual({ max: 360, mean: null });
    expect(criticalFor('Tmax obwod')).toEqual({ max: 180, mean: null });
    expect(criticalFor('T kątowników')).toEqual({ max: null, mean: null });
    expect(criticalFor('T')).toEqual({ max: null, mean: null });
    expect(MEASUREMENT_TYPES.filter((t) => t.critical.max === 180)).toHaveLength(9);
  });

  it('has no thresholds for a name that is not a type', () => {
    expect(criticalFor('tmax')).toEqual({ max: null, mean: null });
  });

  it('describes each type in Polish and English, following the list of docs/behaviour.md §9', () => {
    expect(MEASUREMENT_TYPES.map((t) => t.description.en)).toEqual([
      'Average and maximum',
      'Average and maximum of a discrete area',
      'Maximum',
      'Maximum per DIN 4102-5',
      'Maximum of a discrete area',
      'Maximum 20 mm from the free edge',
      'Maximum by supplementary procedure',
      'Maximum of a discrete area by supplementary procedure',
      'Maximum of the frame',
      'Maximum of the peripheral frame',
      'Temperature of the fixing system (plates to angle brackets)',
      'Plain temperature',
    ]);
    for (const type of MEASUREMENT_TYPES) expect(type.description.pl).toMatch(/^Temperatura/);
    expect(measurementType('TDin').description.pl).toContain('DIN 4102-5');
  });

  it('gives every type its own marker colour, one a config file accepts', () => {
    const colors = MEASUREMENT_TYPES.map((t) => t.color);
    expect(new Set(colors).size).toBe(12);
    for (const color of colors) expect(color).toMatch(/^#[0-9A-F]{6}$/);
  });

  it('is read-only', () => {
    expect(Object.isFrozen(MEASUREMENT_TYPES)).toBe(true);
    expect(Object.isFrozen(measurementType('Tmax').critical)).toBe(true);
  });

  it('validates names exactly', () => {
    expect(measurementTypeNameSchema.safeParse('T kątowników').success).toBe(true);
    expect(measurementTypeNameSchema.safeParse('T katownikow').success).toBe(false);
    expect(isMeasurementTypeName('Tmax ')).toBe(false);
    expect(isMeasurementTypeName('Tmax')).toBe(true);
    expect(isMeasurementTypeName(7)).toBe(false);
  });
});
