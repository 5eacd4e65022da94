/*
 * The max and mean of a measurement category in one frame, over its valid thermocouples (a reading,
 * not faulted in this frame, not excluded): EN 1363-1 §11.3. The engine computes its criteria from it;
 * exports and charts use it for the per-frame columns and series.
 */

export interface CategoryMaxMean {
  /** °C; null when no thermocouple of the category counts in the frame. */
  max: number | null;
  mean: number | null;
  /** Thermocouples counted. */
  valid: number;
}

/**
 * `values`: the frame's thermocouples (index i is thermo_id i + 1); `channels`: the index in `values` of
 * each member of the category; `counts(k)`: whether member k is valid in this frame (the caller knows
 * its faults and exclusions). A missing or non-finite value never counts.
 */
export function categoryMaxMean(
  values: readonly (number | null)[] | undefined,
  channels: readonly number[],
  counts: (member: number) => boolean,
): CategoryMaxMean {
  let max = Number.NEGATIVE_INFINITY;
  let sum = 0;
  let valid = 0;
  if (values !== undefined) {
    for (let k = 0; k < channels.length; k += 1) {
      const value = values[channels[k] as number];
      if (value === null || value === undefined || !Number.isFinite(value) || !counts(k)) continue;
      if (value > max) max = value;
      sum += value;
      valid += 1;
    }
  }
  return valid > 0 ? { max, mean: sum / valid, valid } : { max: null, mean: null, valid: 0 };
}
