import type { CriteriaSnapshot } from '@furnace/contracts';

/** A criteria snapshot for tests: T0 20.3 °C, rise basis, three categories, d_e −5 % within 5 % throughout, no pressure target. */
const role = (mean: boolean, max: boolean, frame = false) => ({ mean, max, frame });

export function criteriaSnapshot(overrides: Partial<CriteriaSnapshot> = {}): CriteriaSnapshot {
  const category = (type_name: string, r: ReturnType<typeof role>) => ({
    type_name,
    role: r,
    max: 100,
    mean: 90,
    max_rise: 80,
    mean_rise: 70,
    valid: 1,
    thermocouples: 1,
  });
  return {
    t0: 20.3,
    t0_source: 'auto',
    elapsed: 3000,
    basis: 'rise',
    limits: {
      mean: { k: 140, c: 160.3, text: 'T0 + 140 K = 160.3 °C' },
      max: { k: 180, c: 200.3, text: 'T0 + 180 K = 200.3 °C' },
      frame: { k: 360, c: 380.3, text: 'T0 + 360 K = 380.3 °C' },
    },
    categories: [
      category('Tśr i Tmax', role(true, true)),
      category('TDin', role(false, false, true)),
      category('T', role(false, false)),
    ],
    deviation: { d_e: -5, tolerance: 5, ok: true, periods: [], conforming: true },
    pressure: null,
    failures: [],
    excursions: [],
    criteria: {
      E: { time: null, minutes: null, reached: false, held_minutes: 50, measured: true, deemed: false },
      I: { time: null, minutes: null, reached: false, held_minutes: 50, measured: true, deemed: false },
      W: { time: null, minutes: null, reached: false, held_minutes: 50, measured: true, deemed: false },
    },
    insulation_classes: null,
    classification: 'E 45, EI 45, EW 45',
    forecast: [],
    suspects: [],
    excluded: [],
    ...overrides,
  };
}
