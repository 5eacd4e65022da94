import { useCallback, useEffect, useRef, useState } from 'react';

/** The monitor's automatic mode shows each photo or camera this long. */
export const MONITOR_CYCLE_MS = 15_000;

/**
 * The monitor's automatic mode: while on (and there is more than one view), `advance` runs every
 * `intervalMs`. On by default: the wall display cycles its views with nobody at it.
 */
export function useAutoCycle(canCycle: boolean, advance: () => void, intervalMs: number) {
  const [on, setOn] = useState(true);
  const latest = useRef(advance);
  latest.current = advance;
  useEffect(() => {
    if (!on || !canCycle) return undefined;
    const timer = setInterval(() => latest.current(), intervalMs);
    return () => clearInterval(timer);
  }, [on, canCycle, intervalMs]);
  const toggle = useCallback(() => setOn((value) => !value), []);
  return { on, toggle };
}
