/** Ambient temperature at the start of the ISO 834 standard fire curve, °C. */
export const ISO834_AMBIENT_C = 20;

/**
 * ISO 834-1 standard time–temperature curve: T = 20 + 345·log10(8·t + 1) °C with t in minutes.
 * Takes seconds since the test started; before the start (t < 0) the furnace is at ambient.
 * A non-finite time gives NaN.
 */
export function iso834(tSeconds: number): number {
  if (!Number.isFinite(tSeconds)) return Number.NaN;
  const minutes = Math.max(0, tSeconds) / 60;
  return ISO834_AMBIENT_C + 345 * Math.log10(8 * minutes + 1);
}
