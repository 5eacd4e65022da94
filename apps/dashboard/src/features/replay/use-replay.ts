import { replayFrames } from '@furnace/api-client';
import { DAQ_BOUNDS, type DaqPayload } from '@furnace/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { unwrap } from '../../api/errors';
import { historyKeys, STAFF } from '../stream/history-api';
import { ReplayPlayer, type ReplayState } from './replay-player';

const readWindow = (researchId: string, from: number, to: number, signal?: AbortSignal) =>
  unwrap(replayFrames({ path: { id: researchId }, query: { from, to }, signal }));

/** The times of the first and last stored frames (an empty window before any frame can be: the bounds only). */
const boundsQuery = (researchId: string) =>
  queryOptions({
    queryKey: [...historyKeys.research(STAFF, researchId), 'replay-bounds'] as const,
    queryFn: ({ signal }) => readWindow(researchId, DAQ_BOUNDS.time.min, DAQ_BOUNDS.time.min, signal),
    select: (window) => ({ first: window.first_time, last: window.last_time }),
  });

/**
 * The replay of a research's stored frames (staff): one player per page, shared by the replay panel
 * and the charts' cursor; null until the test's first and last frames are known (or without frames).
 * `lastTime`: the history's newest frame, which moves the end while a test is still running.
 */
export function useReplayPlayer(researchId: string, lastTime: number | null | undefined): ReplayPlayer | null {
  const bounds = useQuery(boundsQuery(researchId));
  const first = bounds.data?.first ?? null;
  const last = Math.max(bounds.data?.last ?? Number.NEGATIVE_INFINITY, lastTime ?? Number.NEGATIVE_INFINITY);
  const [player, setPlayer] = useState<ReplayPlayer | null>(null);
  const known = first !== null && Number.isFinite(last);
  useEffect(() => {
    if (!known) return undefined;
    const created = new ReplayPlayer(first, last, (from, to) =>
      readWindow(researchId, from, to).then((w) => w.frames as DaqPayload[]),
    );
    setPlayer(created);
    return () => {
      created.dispose();
      setPlayer(null);
    };
    // One player per research: a later last frame only moves its end (below).
  }, [researchId, known]);
  useEffect(() => {
    if (player && first !== null && Number.isFinite(last)) player.setBounds(first, last);
  }, [player, first, last]);
  return player;
}

export function useReplayState(player: ReplayPlayer): ReplayState {
  return useSyncExternalStore(player.subscribe, player.getState);
}

/** The criteria of the replayed moment only: a component using it re-renders when they change, not at every tick of the clock. */
export function useReplayCriteria(player: ReplayPlayer): ReplayState['criteria'] {
  return useSyncExternalStore(player.subscribe, () => player.getState().criteria);
}
