import type { DaqPayload, FrameSource } from '@furnace/contracts';
import { useCallback, useSyncExternalStore } from 'react';

/**
 * A value derived from the newest frame. The component re-renders only when the derived value
 * changes (compared with Object.is): derive strings or numbers, so that a frame that leaves the
 * displayed text unchanged costs no render.
 */
export function useFrameValue<T>(frames: FrameSource, select: (frame: DaqPayload | null) => T): T {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const stop = frames.subscribe(onChange);
      return () => {
        stop();
      };
    },
    [frames],
  );
  return useSyncExternalStore(subscribe, () => select(frames.latest()));
}
