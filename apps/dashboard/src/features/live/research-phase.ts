import { useEffect, useState } from 'react';

/** Spec §4: before start_at not started, between start and end live, after end_at ended. */
export type ResearchPhase = 'notStarted' | 'live' | 'ended';

export function researchPhase(research: { start_at: string; end_at: string }, now: number): ResearchPhase {
  if (now < Date.parse(research.start_at)) return 'notStarted';
  if (now > Date.parse(research.end_at)) return 'ended';
  return 'live';
}

/** Milliseconds until the phase changes next, or null when it never will (ended). */
export function nextPhaseChangeIn(research: { start_at: string; end_at: string }, now: number): number | null {
  const start = Date.parse(research.start_at);
  const end = Date.parse(research.end_at);
  if (now < start) return start - now;
  if (now <= end) return end - now + 1;
  return null;
}

/** setTimeout's longest delay (about 24.8 days); a longer wait is taken in steps. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** The research's phase now, re-rendering when start_at or end_at passes. */
export function useResearchPhase(research: { start_at: string; end_at: string } | undefined): ResearchPhase | null {
  const [tick, setTick] = useState(0);
  const start = research?.start_at;
  const end = research?.end_at;
  useEffect(() => {
    if (start === undefined || end === undefined) return undefined;
    const wait = nextPhaseChangeIn({ start_at: start, end_at: end }, Date.now());
    if (wait === null) return undefined;
    const timer = setTimeout(() => setTick((n) => n + 1), Math.min(wait, MAX_TIMEOUT_MS));
    return () => clearTimeout(timer);
  }, [start, end, tick]);
  return research ? researchPhase(research, Date.now()) : null;
}
