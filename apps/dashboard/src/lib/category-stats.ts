import { criticalFor, type CriticalValues } from '@furnace/contracts';

/*
 * Live statistics per thermocouple category (type_name) for the dashboard's side panel, canvas and
 * curves: max and mean of the current readings against the critical values.
 */

/** What a statistic needs from a marker (a ThermoMarker or a coordinate row from the API). */
export interface CategoryMarker {
  readonly thermo_id: number;
  readonly type_name: string;
}

export type ThermoValues = readonly (number | null | undefined)[];

export interface CategoryStats {
  readonly type_name: string;
  /** Highest current reading, °C; null when no thermocouple of the category has one. */
  readonly max: number | null;
  /** Mean of the current readings, °C; null when there are none. */
  readonly mean: number | null;
  readonly critical: CriticalValues;
  /** Readings that went into max and mean. */
  readonly count: number;
  /** Distinct thermocouples of the category, with or without a reading. */
  readonly thermocouples: number;
  /** Strictly above the critical value; false where the type has no threshold or there is no data. */
  readonly exceeded: { readonly max: boolean; readonly mean: boolean };
}

/**
 * The reading of thermocouple `thermoId` (values[thermoId - 1]); null when the channel is
 * missing, null, or not a finite number.
 */
export function valueForThermo(values: ThermoValues | null | undefined, thermoId: number): number | null {
  if (values == null || !Number.isInteger(thermoId) || thermoId < 1) return null;
  const value = values[thermoId - 1];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Whether one reading is above the critical max of its type (the label turns red). */
export function exceedsCritical(typeName: string, value: number | null | undefined): boolean {
  const { max } = criticalFor(typeName);
  return max !== null && typeof value === 'number' && value > max;
}

/**
 * Statistics per type_name present in `markers`, in order of first appearance. A thermo_id that
 * appears more than once in a category (the same thermocouple on two photos) counts once; a
 * thermo_id listed under two types counts in both.
 */
export function categoryStats(
  markers: readonly CategoryMarker[],
  values: ThermoValues | null | undefined,
): CategoryStats[] {
  const idsByType = new Map<string, Set<number>>();
  for (const marker of markers) {
    let ids = idsByType.get(marker.type_name);
    if (ids === undefined) {
      ids = new Set();
      idsByType.set(marker.type_name, ids);
    }
    ids.add(marker.thermo_id);
  }

  const stats: CategoryStats[] = [];
  for (const [typeName, ids] of idsByType) {
    let max: number | null = null;
    let sum = 0;
    let count = 0;
    for (const id of ids) {
      const value = valueForThermo(values, id);
      if (value === null) continue;
      max = max === null || value > max ? value : max;
      sum += value;
      count++;
    }
    const mean = count === 0 ? null : sum / count;
    const critical = criticalFor(typeName);
    stats.push({
      type_name: typeName,
      max,
      mean,
      critical,
      count,
      thermocouples: ids.size,
      exceeded: {
        max: critical.max !== null && max !== null && max > critical.max,
        mean: critical.mean !== null && mean !== null && mean > critical.mean,
      },
    });
  }
  return stats;
}
