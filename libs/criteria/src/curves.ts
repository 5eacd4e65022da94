import { type HeatingCurveId, ISO834_AMBIENT_C, iso834 } from '@furnace/contracts';

/*
 * Nominal furnace time–temperature curves, T in °C with t in minutes since ignition.
 * - ISO 834 standard (EN 1363-1 §5.1.1): T = 345·log10(8t + 1) + 20.
 * - Hydrocarbon (EN 1363-2 §4.2; EN 1991-1-2 §3.2.3): T = 1080·(1 − 0.325·e^(−0.167t) − 0.675·e^(−2.5t)) + 20.
 * - External fire (EN 1363-2 §5.2; EN 1991-1-2 §3.2.2): T = 660·(1 − 0.687·e^(−0.32t) − 0.313·e^(−3.8t)) + 20.
 * - Slow heating (EN 1363-2 §6.2, the "sn" curve of EN 13501-2): T = 154·t^0.25 + 20 for t ≤ 21,
 *   then T = 345·log10(8(t − 20) + 1) + 20 (the standard curve shifted by 20 min).
 * Before ignition (t < 0) every curve is at ambient, 20 °C.
 */

function hydrocarbon(minutes: number): number {
  return 1080 * (1 - 0.325 * Math.exp(-0.167 * minutes) - 0.675 * Math.exp(-2.5 * minutes)) + ISO834_AMBIENT_C;
}

function external(minutes: number): number {
  return 660 * (1 - 0.687 * Math.exp(-0.32 * minutes) - 0.313 * Math.exp(-3.8 * minutes)) + ISO834_AMBIENT_C;
}

function slow(minutes: number): number {
  if (minutes <= 21) return 154 * minutes ** 0.25 + ISO834_AMBIENT_C;
  return 345 * Math.log10(8 * (minutes - 20) + 1) + ISO834_AMBIENT_C;
}

/** The curve's temperature, °C, at `tSeconds` since ignition; 20 °C before it; NaN for a non-finite time. */
export function heatingCurve(id: HeatingCurveId, tSeconds: number): number {
  if (!Number.isFinite(tSeconds)) return Number.NaN;
  if (tSeconds <= 0) return ISO834_AMBIENT_C;
  const minutes = tSeconds / 60;
  switch (id) {
    case 'iso834':
      return iso834(tSeconds);
    case 'hydrocarbon':
      return hydrocarbon(minutes);
    case 'external':
      return external(minutes);
    case 'slow':
      return slow(minutes);
  }
}

/** The curves a profile may name. Each one's name, in Polish and English, is the text catalogue's `criteria.curve`. */
export const HEATING_CURVE_IDS = Object.freeze([
  'iso834',
  'hydrocarbon',
  'external',
  'slow',
] as const) satisfies readonly HeatingCurveId[];

export function isHeatingCurveId(value: unknown): value is HeatingCurveId {
  return typeof value === 'string' && (HEATING_CURVE_IDS as readonly string[]).includes(value);
}
