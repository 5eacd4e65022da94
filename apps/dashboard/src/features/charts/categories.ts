import { criticalFor, type CriticalValues } from '@furnace/contracts';

/** What the charts need of a thermocouple marker (a ThermoMarkerDto, or the live view's marker). */
export interface CurveMarker {
  readonly thermo_id: number;
  readonly type_name: string;
  readonly color_hex: string;
  readonly name: string;
}

/** A thermocouple category (type_name) as the charts draw it. */
export interface ChartCategory {
  readonly typeName: string;
  /** The colour of the category's first marker. */
  readonly color: string;
  readonly critical: CriticalValues;
  readonly thermoIds: readonly number[];
  /** Labels of the critical lines when they are the test profile's limits ("max: T0 + 180 K = 200.3 °C"). */
  readonly limitLabels?: { readonly max?: string; readonly mean?: string };
}

/** The categories of `markers`, in order of first appearance (the order of categoryStats()). */
export function chartCategories(markers: readonly CurveMarker[]): ChartCategory[] {
  const byType = new Map<string, { color: string; ids: Set<number> }>();
  for (const marker of markers) {
    let entry = byType.get(marker.type_name);
    if (!entry) byType.set(marker.type_name, (entry = { color: marker.color_hex, ids: new Set() }));
    entry.ids.add(marker.thermo_id);
  }
  return [...byType].map(([typeName, { color, ids }]) => ({
    typeName,
    color,
    critical: criticalFor(typeName),
    thermoIds: [...ids].sort((a, b) => a - b),
  }));
}

/** Series keys of the history endpoint (libs/api-server history.dto.ts) that the charts use as series ids. */
export const seriesKey = {
  pk: 'pk',
  radiance: 'radiance',
  pressure: 'pressure',
  iso834: 'iso834',
  thermo: (thermoId: number) => `thermo:${thermoId}`,
  categoryMax: (typeName: string) => `category:${typeName}:max`,
  categoryMean: (typeName: string) => `category:${typeName}:mean`,
} as const;
