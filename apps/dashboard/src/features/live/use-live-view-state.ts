import { useCallback, useMemo, useState } from 'react';
import type { Marker } from '../../api/research-types';
import { categoriesOf, toggleCategory } from './categories';
import { cycleKey, displayItems, selectedIndex } from './display-items';
import type { LiveData } from './LiveGate';

/** Markers grouped by their config (one photo each). */
function groupByConfig(markers: readonly Marker[]): Map<string, Marker[]> {
  const map = new Map<string, Marker[]>();
  for (const marker of markers) {
    const list = map.get(marker.config_id);
    if (list) list.push(marker);
    else map.set(marker.config_id, [marker]);
  }
  return map;
}

/** What the live view, the monitor and the replay keep about the displayed view. */
export function useLiveViewState(data: Pick<LiveData, 'configs' | 'urls' | 'markers'>, initialThermoMode = false) {
  const [thermoMode, setThermoMode] = useState(initialThermoMode);
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

/** The side panel's view controls (photo cycler, thermocouple mode, category toggles) wired to the view state. */
export function viewControls(view: LiveViewState) {
  return {
    items: view.items,
    current: view.current,
    onStep: view.step,
    thermoMode: view.thermoMode,
    onThermoMode: () => view.setThermoMode((on) => !on),
    categories: view.categories,
    hidden: view.hidden,
    onToggleCategory: view.toggle,
  };
}
