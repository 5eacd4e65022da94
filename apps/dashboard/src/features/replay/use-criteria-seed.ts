import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { CriteriaInputs } from '../criteria/live-criteria';
import { criteriaSnapshotQuery } from '../stream/criteria-api';
import { historyQueryOptions } from '../stream/history-api';
import type { ReadAuth } from '../stream/read-auth';

/** Buckets of the history the replay's criteria start from (T0, d_e's area and the failures before the window). */
const REPLAY_CRITERIA_POINTS = 1000;

/**
 * What the replay's criteria engine (ReplayCriteria, the browser's own run: the live view and the
 * monitor take the server's from the stream) starts from: the inputs seeded with the server's
 * automatic T0 (the history starts at time 0, the frames before ignition are the server's), stable
 * by content, and the history of every thermocouple in REPLAY_CRITERIA_POINTS buckets, read once `enabled`.
 */
export function useCriteriaSeed(auth: ReadAuth, researchId: string, inputs: CriteriaInputs | null, enabled: boolean) {
  // The history starts at time 0: the T0 of the frames before ignition comes from the server's criteria.
  const server = useQuery({
    ...criteriaSnapshotQuery(auth, researchId),
    enabled: inputs !== null,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const serverDone = server.isSuccess || server.isError;
  const serverT0 = server.data?.t0_source === 'auto' ? server.data.t0 : null;
  // Every thermocouple of the research: the engine needs each one's readings, not only the drawn ones.
  const thermoKey = inputs ? [...new Set(inputs.markers.map((m) => m.thermo_id))].sort((a, b) => a - b).join(',') : '';
  const params = useMemo(
    () => ({ points: REPLAY_CRITERIA_POINTS, thermoIds: thermoKey === '' ? [] : thermoKey.split(',').map(Number) }),
    [thermoKey],
  );
  const history = useQuery({
    ...historyQueryOptions(auth, researchId, params),
    enabled: enabled && inputs !== null && serverDone,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });

  // The inputs by content: a refetch returning the same rows rebuilds nothing.
  const seeded = useMemo(
    (): CriteriaInputs | null =>
      inputs && serverDone ? { ...inputs, auto_t0: inputs.t0_override === null ? serverT0 : null } : null,
    [inputs, serverDone, serverT0],
  );
  const key = useMemo(() => (seeded ? JSON.stringify(seeded) : null), [seeded]);
  const stableInputs = useMemo(() => seeded, [key]);
  return { history, inputs: stableInputs };
}
