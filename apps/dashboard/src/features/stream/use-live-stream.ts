import { type CriteriaView, type UpdateKind, createFrameSource, type FrameSource } from '@furnace/contracts';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { streamTicketIssue } from '@furnace/api-client';
import { unwrap } from '../../api/errors';
import { criteriaSnapshotQuery } from './criteria-api';
import type { FirstTicket } from './live-bootstrap';
import { liveKeys } from './live-keys';
import { type ConnectionStatus, connectLiveSocket, type LiveSocket, streamUrl } from './live-socket';
import { type ReadAuth, readHeaders } from './read-auth';

export interface LiveStream {
  /** Every DATA frame of the page's one socket, for every consumer (canvas, panel, curves). */
  frames: FrameSource;
  status: ConnectionStatus;
  /**
   * The newest criteria the server pushed (CRITERIA), as this viewer may see them; null until the
   * first one. Kept across a reconnect (the server sends a fresh one when the stream opens again).
   */
  criteria: CriteriaView | null;
  /** Drops the connection and connects again at once (the monitor's refresh). */
  reconnect: () => void;
}

/**
 * After the stream opened, how long to wait for its first CRITERIA before reading GET …/criteria once
 * instead (a server that does not send them): one heartbeat.
 */
const CRITERIA_FALLBACK_MS = 5000;

/** What an UPDATE notice makes stale (docs/behaviour.md §7). */
function invalidateFor(queryClient: QueryClient, auth: ReadAuth, researchId: string, kind: UpdateKind): Promise<void> {
  switch (kind) {
    case 'RESEARCH':
      // The profile, T0 and the thermocouple exclusions.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: liveKeys.research(auth, researchId) }),
        queryClient.invalidateQueries({ queryKey: liveKeys.exclusions(auth, researchId) }),
      ]).then(() => undefined);
    case 'OBSERVATION':
      return queryClient.invalidateQueries({ queryKey: liveKeys.observations(auth, researchId) });
    case 'LIVESTREAM':
      return queryClient.invalidateQueries({ queryKey: liveKeys.urls(auth, researchId) });
    case 'THERMOCOUPLE':
      return queryClient.invalidateQueries({ queryKey: liveKeys.thermo(auth, researchId) });
  }
}

/**
 * One live socket per page for `researchId`, read with `auth` (the staff session's token or the
 * viewer token), each connection opened with a fresh single-use ticket: the first with the one the
 * live view's bootstrap brought (`firstTicket`) while it is valid, the others with one bought then.
 * `onRefused` runs when a connection closes before it opened or no ticket is given: a viewer's token
 * may have expired, and the caller exchanges the code again.
 */
export function useLiveStream(
  researchId: string,
  auth: ReadAuth,
  options: { enabled: boolean; onRefused?: (error?: unknown) => void; firstTicket?: FirstTicket },
): LiveStream {
  const queryClient = useQueryClient();
  const [frames] = useState(createFrameSource);
  const [status, setStatus] = useState<ConnectionStatus>(0);
  // Tagged with its research: a view of another research (the page was reused) is never shown.
  const [pushed, setPushed] = useState<{ researchId: string; view: CriteriaView } | null>(null);
  const socket = useRef<LiveSocket | null>(null);
  // Read at every (re)connect: a renewed viewer token is used without tearing the page down.
  const latest = useRef({ auth, onRefused: options.onRefused, firstTicket: options.firstTicket });
  latest.current = { auth, onRefused: options.onRefused, firstTicket: options.firstTicket };
  const authKind = auth.kind;

  useEffect(() => {
    if (!options.enabled) return undefined;
    // A connection that opens after an earlier one was lost (a restart, the network): frames of
    // the time between were not received; the curves read the history again (FrameSource.subscribeGap).
    let everOpen = false;
    let lost = false;
    const onStatus = (next: ConnectionStatus) => {
      setStatus(next);
      if (next === 0) {
        lost = everOpen;
        return;
      }
      everOpen = true;
      if (lost) {
        lost = false;
        frames.markGap();
      }
    };
    const live = connectLiveSocket({
      // A single-use ticket for each (re)connection, bought with the staff session or the viewer
      // token: neither ever appears in the socket's URL.
      url: async () => {
        const ticket =
          latest.current.firstTicket?.() ??
          (await unwrap(streamTicketIssue({ path: { id: researchId }, headers: readHeaders(latest.current.auth) })))
            .ticket;
        return streamUrl(window.location, researchId, ticket);
      },
      onStatus,
      onFrame: (frame) => frames.push(frame),
      onUpdate: (kind) => void invalidateFor(queryClient, latest.current.auth, researchId, kind),
      // At most about once a second: React state, the page re-renders with the new numbers.
      onCriteria: (view) => setPushed({ researchId, view }),
      onAlarm: () => void queryClient.invalidateQueries({ queryKey: liveKeys.alarms(latest.current.auth, researchId) }),
      onRefused: (error) => latest.current.onRefused?.(error),
    });
    socket.current = live;
    return () => {
      live.close();
      socket.current = null;
    };
  }, [researchId, authKind, options.enabled, frames, queryClient]);

  const streamed = pushed?.researchId === researchId ? pushed.view : null;
  const criteria = useCriteriaFallback(auth, researchId, options.enabled && status !== 0, streamed);
  return { frames, status, criteria, reconnect: () => socket.current?.reconnect() };
}

/**
 * The streamed criteria, or, when the stream has been open for CRITERIA_FALLBACK_MS without sending
 * any (an older server), GET …/criteria read once: never polled, the first CRITERIA replaces it.
 */
function useCriteriaFallback(
  auth: ReadAuth,
  researchId: string,
  open: boolean,
  streamed: CriteriaView | null,
): CriteriaView | null {
  const [waitedFor, setWaitedFor] = useState<string | null>(null);
  const waited = waitedFor === researchId;
  useEffect(() => {
    if (!open || waited || streamed !== null) return undefined;
    const timer = setTimeout(() => setWaitedFor(researchId), CRITERIA_FALLBACK_MS);
    return () => clearTimeout(timer);
  }, [open, waited, streamed, researchId]);
  const fallback = useQuery({
    ...criteriaSnapshotQuery(auth, researchId),
    enabled: waited && streamed === null,
    staleTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  return streamed ?? fallback.data ?? null;
}
