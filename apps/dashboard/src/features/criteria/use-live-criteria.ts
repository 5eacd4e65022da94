import type { CriteriaSnapshot, DaqPayload } from '@furnace/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { historyQueryOptions } from '../history/history-api';
import type { FrameSource } from '../live/frame-source';
import type { ReadAuth } from '../live/read-auth';
import { criteriaSnapshotQuery } from './criteria-api';
import { type CriteriaInputs, LiveCriteria } from './live-criteria';

/** Buckets of the history the live criteria start from (T0, d_e's area and the failures so far). */
const LIVE_CRITERIA_POINTS = 1000;
/** The snapshot shown is taken at most this often (ms): the numbers change with every frame, the eye needs less. */
const SNAPSHOT_MS = 500;
/** Frames received before the history arrives, replayed after its last_time. */
const PENDING_FRAMES = 2000;

/**
 * The criteria snapshot of a running test, computed in the browser (same engine as the API) over
 * the history and the live frames; null until the history has been read. `inputs` null: not known
 * yet (the profile, exclusions or observations are loading).
 */
export function useLiveCriteria(auth: ReadAuth, researchId: string, frames: FrameSource, inputs: CriteriaInputs | null): CriteriaSnapshot | null {
  const [snapshot, setSnapshot] = useState<CriteriaSnapshot | null>(null);
  const criteria = useRef<LiveCriteria | null>(null);
  const pending = useRef<DaqPayload[]>([]);
  const dirty = useRef(false);
  const [subscribed, setSubscribed] = useState(false);
  const refetch = useRef<() => Promise<unknown>>(() => Promise.resolve());

  // Subscribed before the history is requested: no frame falls between them.
  useEffect(() => {
    const stop = frames.subscribe((frame) => {
      const current = criteria.current;
      if (current?.isLoaded) {
        if (current.push(frame)) dirty.current = true;
      } else {
        pending.current.push(frame);
        if (pending.current.length > PENDING_FRAMES) pending.current.splice(0, pending.current.length - PENDING_FRAMES);
      }
    });
    // A lost connection is back: frames of the time between were missed; read the history again.
    const stopGap = frames.subscribeGap(() => {
      criteria.current?.unload();
      void refetch.current();
    });
    setSubscribed(true);
    const timer = setInterval(() => {
      if (!dirty.current || !criteria.current) return;
      dirty.current = false;
      setSnapshot(criteria.current.snapshot());
    }, SNAPSHOT_MS);
    return () => {
      stop();
      stopGap();
      clearInterval(timer);
    };
  }, [frames]);

  const { history, inputs: stableInputs } = useCriteriaSeed(auth, researchId, inputs, subscribed);
  refetch.current = history.refetch;

  useEffect(() => {
    if (!stableInputs) return;
    if (criteria.current) {
      criteria.current.setInputs(stableInputs);
      dirty.current = true;
    } else criteria.current = new LiveCriteria(stableInputs);
  }, [stableInputs]);

  // Each history read is loaded once (the inputs' effect above runs first and creates the engine).
  const historyError = history.isError;
  const loadedFrom = useRef<unknown>(undefined);
  useEffect(() => {
    const current = criteria.current;
    // Each read counts (a read again after a gap may return the same rows: the same object).
    const source = history.data ? history.dataUpdatedAt : historyError ? `error-${history.errorUpdatedAt}` : undefined;
    if (!current || source === undefined || loadedFrom.current === source) return;
    loadedFrom.current = source;
    current.load(history.data ?? null, pending.current);
    pending.current = [];
    setSnapshot(current.snapshot());
  }, [history.data, history.dataUpdatedAt, historyError, history.errorUpdatedAt, stableInputs]);

  return snapshot;
}

/**
 * What the criteria engine of the browser starts from: the inputs seeded with the server's automatic
 * T0 (the history starts at time 0, the frames before ignition are the server's), stable by content,
 * and the history of every thermocouple in LIVE_CRITERIA_POINTS buckets, read once `enabled`.
 */
export function useCriteriaSeed(auth: ReadAuth, researchId: string, inputs: CriteriaInputs | null, enabled: boolean) {
  // The history starts at time 0: the T0 of the frames before ignition comes from the server's criteria.
  const server = useQuery({ ...criteriaSnapshotQuery(auth, researchId), enabled: inputs !== null, staleTime: Infinity, refetchOnWindowFocus: false });
  const serverDone = server.isSuccess || server.isError;
  const serverT0 = server.data?.t0_source === 'auto' ? server.data.t0 : null;
  // Every thermocouple of the research: the engine needs each one's readings, not only the drawn ones.
  const thermoKey = inputs ? [...new Set(inputs.markers.map((m) => m.thermo_id))].sort((a, b) => a - b).join(',') : '';
  const params = useMemo(() => ({ points: LIVE_CRITERIA_POINTS, thermoIds: thermoKey === '' ? [] : thermoKey.split(',').map(Number) }), [thermoKey]);
  const history = useQuery({
    ...historyQueryOptions(auth, researchId, params),
    enabled: enabled && inputs !== null && serverDone,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });

  // The inputs by content: a refetch returning the same rows rebuilds nothing.
  const seeded = useMemo(
    (): CriteriaInputs | null => (inputs && serverDone ? { ...inputs, auto_t0: inputs.t0_override === null ? serverT0 : null } : null),
    [inputs, serverDone, serverT0],
  );
  const key = useMemo(() => (seeded ? JSON.stringify(seeded) : null), [seeded]);
  const stableInputs = useMemo(() => seeded, [key]);
  return { history, inputs: stableInputs };
}
