import { Box, Center, Loader } from '@mantine/core';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { ObservationDto, ThermoExclusionDto } from '@furnace/api-client';
import type { CriteriaSnapshot, DaqPayload, FrameSource } from '@furnace/contracts';
import type { Research, Marker } from '../../api/research-types';
import type { EarlyFrames } from '../live/LiveCurves';

export interface LiveCurvesProps {
  research: Research;
  markers: readonly Marker[];
  frames: FrameSource;
  observations?: readonly ObservationDto[];
  exclusions?: readonly ThermoExclusionDto[];
  criteria?: CriteriaSnapshot | null;
}

// The curves (ECharts) are a chunk of their own, loaded when they come into view: the live view shows
// its photo and values without waiting for them, and a phone that never scrolls down never loads them.
const LiveCurves = lazy(() => import('../live/LiveCurves'));

/** True once the element has come within `margin` of the viewport (at once where IntersectionObserver is missing). */
function useSeenOnce(margin = '200px') {
  const ref = useRef<HTMLDivElement>(null);
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    if (seen || !ref.current) return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setSeen(true);
      },
      { rootMargin: margin },
    );
    observer.observe(ref.current);
    return () => observer.disconnect();
  }, [seen, margin]);
  return { ref, seen };
}

/** Frames kept for curves not mounted yet: as many as the curves keep themselves. */
const EARLY_FRAMES = 1000;

/**
 * Keeps the frames from its creation until the curves take them (once), so that curves mounted later
 * can go on from a history read before the stream opened (the live view's bootstrap) without a gap.
 * None are handed over when some are missing: a frame had come before, or more than it keeps since.
 */
function frameKeeper(frames: FrameSource) {
  const since = Date.now();
  let kept: DaqPayload[] | null = frames.latest() === null ? [] : null;
  let stop: (() => void) | null = null;
  const end = () => {
    stop?.();
    stop = null;
  };
  const take: EarlyFrames = () => {
    const taken = kept;
    kept = null;
    end();
    return taken && { since, frames: taken };
  };
  const start = () => {
    if (kept === null || stop !== null) return end;
    stop = frames.subscribeAll((frame) => {
      kept?.push(frame);
      if (kept && kept.length > EARLY_FRAMES) {
        kept = null;
        end();
      }
    });
    return end;
  };
  return { start, take };
}

/** Where the live curves go, below the live view. */
export function LiveCurvesSlot(props: LiveCurvesProps) {
  const [keeper] = useState(() => frameKeeper(props.frames));
  useEffect(keeper.start, [keeper]);
  const { ref, seen } = useSeenOnce();
  const fallback = (
    <Center mih={320}>
      <Loader size="sm" />
    </Center>
  );
  return (
    <Box ref={ref} mih={320} data-testid="live-curves-slot">
      {seen ? <Suspense fallback={fallback}>{<LiveCurves {...props} earlyFrames={keeper.take} />}</Suspense> : fallback}
    </Box>
  );
}
