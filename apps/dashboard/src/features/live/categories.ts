import { categoryStats, type CategoryStats, type ThermoValues } from '../../lib/category-stats';

/** A thermocouple category (docs/behaviour.md §3): the markers of one type_name, with the colour of its first marker. */
export interface Category {
  readonly name: string;
  readonly color: string;
}

/** Categories in order of first appearance. */
export function categoriesOf(markers: readonly { type_name: string; color_hex: string }[]): Category[] {
  const seen = new Map<string, Category>();
  for (const marker of markers) {
    if (!seen.has(marker.type_name)) seen.set(marker.type_name, { name: marker.type_name, color: marker.color_hex });
  }
  return [...seen.values()];
}

/** Spec §4: a toggle flips the category; its markers are shown or hidden with it. */
export function toggleCategory(hidden: ReadonlySet<string>, name: string): Set<string> {
  const next = new Set(hidden);
  if (next.has(name)) next.delete(name);
  else next.add(name);
  return next;
}

/** Max and mean over every thermocouple of the research (the monitor's summary). */
export function overallStats(
  markers: readonly { thermo_id: number }[],
  values: ThermoValues | null | undefined,
): Pick<CategoryStats, 'max' | 'mean'> {
  const [all] = categoryStats(
    markers.map((m) => ({ thermo_id: m.thermo_id, type_name: '' })),
    values,
  );
  return { max: all?.max ?? null, mean: all?.mean ?? null };
}
