import { categoryStats, exceedsCritical, valueForThermo, type CategoryMarker } from './category-stats';

const marker = (thermo_id: number, type_name: string): CategoryMarker => ({ thermo_id, type_name });

describe('valueForThermo', () => {
  it('reads thermo_id k at index k-1', () => {
    expect(valueForThermo([21.4, 22, 23.5], 1)).toBe(21.4);
    expect(valueForThermo([21.4, 22, 23.5], 3)).toBe(23.5);
  });

  it('is null for missing channels, nulls and bad ids', () => {
    expect(valueForThermo([21.4], 2)).toBeNull();
    expect(valueForThermo([null], 1)).toBeNull();
    expect(valueForThermo([21.4], 0)).toBeNull();
    expect(valueForThermo([21.4], 1.5)).toBeNull();
    expect(valueForThermo([Number.NaN], 1)).toBeNull();
    expect(valueForThermo(null, 1)).toBeNull();
    expect(valueForThermo(undefined, 1)).toBeNull();
  });
});

describe('categoryStats', () => {
  const markers = [
    marker(1, 'Tśr i Tmax'),
    marker(2, 'Tśr i Tmax'),
    marker(3, 'Tśr i Tmax'),
    marker(4, 'Tmax ościeżnicy'),
    marker(5, 'T kątowników'),
    // The same thermocouple drawn on a second photo.
    marker(1, 'Tśr i Tmax'),
    marker(6, 'Tmax ościeżnicy'),
  ];

  it('gives max, mean and thresholds per category, in order of first appearance', () => {
    const values = [150, 130, null, 370, 500];
    expect(categoryStats(markers, values)).toEqual([
      {
        type_name: 'Tśr i Tmax',
        max: 150,
        mean: 140,
        critical: { max: 180, mean: 140 },
        count: 2,
        thermocouples: 3,
        exceeded: { max: false, mean: false },
      },
      {
        type_name: 'Tmax ościeżnicy',
        max: 370,
        mean: 370,
        critical: { max: 360, mean: null },
        count: 1,
        thermocouples: 2,
        exceeded: { max: true, mean: false },
      },
      {
        type_name: 'T kątowników',
        max: 500,
        mean: 500,
        critical: { max: null, mean: null },
        count: 1,
        thermocouples: 1,
        exceeded: { max: false, mean: false },
      },
    ]);
  });

  it('counts a thermocouple on two photos once', () => {
    // Counted twice, thermo 1 would pull the mean to (190+190+100)/3 = 160.
    const [first] = categoryStats(markers, [190, 100, null]);
    expect(first?.mean).toBe(145);
    expect(first?.exceeded).toEqual({ max: true, mean: true });
  });

  it('is strictly above the threshold that counts as exceeded', () => {
    const [first] = categoryStats([marker(1, 'Tmax')], [180]);
    expect(first?.exceeded.max).toBe(false);
    const [second] = categoryStats([marker(1, 'Tmax')], [180.1]);
    expect(second?.exceeded.max).toBe(true);
  });

  it('has no values and no exceedance without data', () => {
    for (const values of [[], null, undefined, [null, null]]) {
      const [first] = categoryStats([marker(1, 'Tśr i Tmax'), marker(2, 'Tśr i Tmax')], values);
      expect(first).toMatchObject({
        max: null,
        mean: null,
        count: 0,
        thermocouples: 2,
        exceeded: { max: false, mean: false },
      });
    }
    expect(categoryStats([], [20])).toEqual([]);
  });

  it('handles all-negative readings', () => {
    const [first] = categoryStats([marker(1, 'T'), marker(2, 'T')], [-5, -3]);
    expect(first).toMatchObject({ max: -3, mean: -4 });
  });
});

describe('exceedsCritical', () => {
  it('compares one reading with the critical max of its type', () => {
    expect(exceedsCritical('Tmax', 181)).toBe(true);
    expect(exceedsCritical('Tmax', 180)).toBe(false);
    expect(exceedsCritical('Tmax ościeżnicy', 300)).toBe(false);
    expect(exceedsCritical('T', 2000)).toBe(false);
    expect(exceedsCritical('Tmax', null)).toBe(false);
  });
});
