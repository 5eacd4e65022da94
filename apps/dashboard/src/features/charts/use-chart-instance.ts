import { useCallback, useRef, type RefObject } from 'react';
import type { EChartsInstance } from './echarts';

/**
 * The instance of an EChart and its onInstance callback. `onReady` is called with each new instance:
 * point it at the latest push (the chart calls back the onInstance it was created with, so a plain
 * callback would push data that was current when the chart was created).
 */
export function useChartInstance(): {
  instance: RefObject<EChartsInstance | null>;
  onReady: RefObject<() => void>;
  onInstance: (chart: EChartsInstance) => void;
} {
  const instance = useRef<EChartsInstance | null>(null);
  const onReady = useRef<() => void>(() => undefined);
  const onInstance = useCallback((chart: EChartsInstance) => {
    instance.current = chart;
    onReady.current();
  }, []);
  return { instance, onReady, onInstance };
}
