import type { UpdateKind } from '@furnace/contracts';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { streamTicketIssue } from '@furnace/api-client';
import { unwrap } from '../../api/errors';
import { createFrameSource, type FrameSource } from './frame-source';
import { liveKeys } from './live-keys';
import { type ConnectionStatus, connectLiveSocket, type LiveSocket, streamUrl } from './live-socket';
import { type ReadAuth, readHeaders } from './read-auth';

export interface LiveStream {
  /** Every DATA frame of the page's one socket, for every consumer (canvas, panel, curves). */
  frames: FrameSource;
  status: ConnectionStatus;
  /** Drops the connection and connects again at once (the monitor's refresh). */
  reconnect: () => void;
}

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
 * viewer token), each connection opened with a fresh single-use ticket. `onRefused` runs when a
 * connection closes before it opened or no ticket is given: a viewer's token may have expired, and
 * the caller exchanges the code again.
 */
export function useLiveStream(researchId: string, auth: ReadAuth, options: { enabled: boolean; onRefused?: (error?: unknown) => void }): LiveStream {
  const queryClient = useQueryClient();
  const [frames] = useState(createFrameSource);
  const [status, setStatus] = useState<ConnectionStatus>(0);
  const socket = useRef<LiveSocket | null>(null);
  // Read at every (re)connect: a renewed viewer token is used without tearing the page down.
  const latest = useRef({ auth, onRefused: options.onRefused });
  latest.current = { auth, onRefused: options.onRefused };
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
        const { ticket } = await unwrap(streamTicketIssue({ path: { id: researchId }, headers: readHeaders(latest.current.auth) }));
        return streamUrl(window.location, researchId, ticket);
      },
      onStatus,
      onFrame: (frame) => frames.push(frame),
      onUpdate: (kind) => void invalidateFor(queryClient, latest.current.auth, researchId, kind),
      onRefused: (error) => latest.current.onRefused?.(error),
    });
    socket.current = live;
    return () => {
      live.close();
      socket.current = null;
    };
  }, [researchId, authKind, options.enabled, frames, queryClient]);

  return { frames, status, reconnect: () => socket.current?.reconnect() };
}
