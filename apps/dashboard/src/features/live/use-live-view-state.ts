import { useCallback, useMemo, useState } from 'react';
import type { ThermoCoord } from '../../api/research-types';
import { categoriesOf, toggleCategory } from './categories';
import { cycleKey, displayItems, selectedIndex } from './display-items';
import type { LiveData } from './LiveGate';

/** Markers grouped by their config (one photo each). */
export function groupByConfig(markers: readonly ThermoCoord[]): Map<string, ThermoCoord[]> {
  const map = new Map<string, ThermoCoord[]>();
  for (const marker of markers) {
    const list = map.get(marker.config_id);
    if (list) list.push(marker);
    else map.set(marker.config_id, [marker]);
  }
  return map;
}

/** What the live view and the monitor keep about the displayed view. */
export function useLiveViewState(data: LiveData) {
  const [thermoMode, setThermoMode] = useState(false);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const items = useMemo(() => displayItems(data.configs, data.urls), [data.configs, data.urls]);
  const current = items[selectedIndex(items, selectedKey)];
  const categories = useMemo(() => categoriesOf(data.markers), [data.markers]);
  const markersByConfig = useMemo(() => groupByConfig(data.markers), [data.markers]);
  const step = useCallback((by: number) => setSelectedKey((key) => cycleKey(items, key, by)), [items]);
  const toggle = useCallback((name: string) => setHidden((set) => toggleCategory(set, name)), []);
  return {
    items,
    current,
    step,
    categories,
    markersByConfig,
    hidden,
    toggle,
    thermoMode,
    setThermoMode,
    mode: thermoMode ? ('temperature' as const) : ('name' as const),
  };
}

export type LiveViewState = ReturnType<typeof useLiveViewState>;
