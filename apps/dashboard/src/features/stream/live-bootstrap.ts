import { liveViewLiveView, type LiveViewDto, type StreamTicketDto } from '@furnace/api-client';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { unwrap } from '../../api/errors';
import { exclusionsQuery, observationsQuery } from './criteria-api';
import { historyQueryOptions, LIVE_HISTORY_POINTS } from './history-api';
import { liveKeys } from './live-keys';
import { liveConfigsQuery, liveMarkersQuery, liveResearchQuery, liveUrlsQuery } from './live-queries';
import { queryMetaFor, type ReadAuth, readHeaders } from './read-auth';

/*
 * A live screen opens with one request, GET …/live-view: what it shows first (the research, its links,
 * configs, markers, observations, exclusions and the curves' history), shared by the crowd of viewers
 * that open it at once, and a stream ticket. The answer is put in the cache under each resource's own
 * key, so the screen's queries find it there; they refetch one by one afterwards, on the stream's UPDATEs.
 */

/** The bootstrap's stream ticket, for the stream's first connection: handed out once, while it has time left. */
export type FirstTicket = () => string | null;

/** Of a ticket's validity, what is left for the socket to reach the server. */
const TICKET_MARGIN_MS = 5_000;

/**
 * The caller's stream ticket from the live view's response headers (the body is the same for every
 * caller, so the server sends each their own ticket there); null when they are missing.
 */
export function ticketFromHeaders(headers: Headers): StreamTicketDto | null {
  const ticket = headers.get('Stream-Ticket');
  const expiresIn = Number(headers.get('Stream-Ticket-Expires-In'));
  return ticket && Number.isFinite(expiresIn) && expiresIn > 0 ? { ticket, expires_in: expiresIn } : null;
}

/** `ticket` (received at `receivedAt`) once, or null after that or once it is about to expire; none: always null (the stream buys one). */
export function singleUseTicket(issued: StreamTicketDto | null, receivedAt = Date.now()): FirstTicket {
  if (issued === null) return () => null;
  const { ticket, expires_in } = issued;
  let left: string | null = ticket;
  const until = receivedAt + expires_in * 1000 - TICKET_MARGIN_MS;
  return () => {
    const taken = left;
    left = null;
    return taken !== null && Date.now() < until ? taken : null;
  };
}

/** Puts a live-view answer where each query of the live screen reads it, in the shape its own request stores. */
export function seedLiveView(
  queryClient: QueryClient,
  auth: ReadAuth,
  researchId: string,
  view: LiveViewDto,
  updatedAt = Date.now(),
): void {
  const seed = { updatedAt };
  queryClient.setQueryData(liveResearchQuery(auth, researchId).queryKey, view.research, seed);
  // These store the list responses as they are ({data}) and select the list.
  queryClient.setQueryData(liveUrlsQuery(auth, researchId).queryKey, { data: view.urls }, seed);
  queryClient.setQueryData(liveConfigsQuery(auth, researchId).queryKey, { data: view.configs }, seed);
  queryClient.setQueryData(liveMarkersQuery(auth, researchId).queryKey, { data: view.markers }, seed);
  queryClient.setQueryData(observationsQuery(auth, researchId).queryKey, view.observations, seed);
  queryClient.setQueryData(exclusionsQuery(auth, researchId).queryKey, view.exclusions, seed);
  queryClient.setQueryData(
    historyQueryOptions(auth, researchId, { points: LIVE_HISTORY_POINTS }).queryKey,
    view.history,
    seed,
  );
}

/**
 * GET …/live-view, once per opening of a live screen (gcTime 0; disabled once answered, so neither an
 * invalidation of the research's keys nor a remount of a reader reads it again). It seeds the cache
 * before it resolves: the screen mounted on its answer finds everything there. Its data is only the
 * stream ticket (from the response's headers). A failure is the screen's (404, 403, a viewer's 401), as a failed read of the research was.
 */
export const liveBootstrapQuery = (auth: ReadAuth, researchId: string) =>
  queryOptions({
    queryKey: liveKeys.bootstrap(auth, researchId),
    queryFn: async ({ signal, client }): Promise<{ streamTicket: FirstTicket }> => {
      const result = await liveViewLiveView({
        path: { id: researchId },
        query: { points: LIVE_HISTORY_POINTS },
        headers: readHeaders(auth),
        signal,
      });
      const view = await unwrap(Promise.resolve(result));
      seedLiveView(client, auth, researchId, view);
      return { streamTicket: singleUseTicket(result.response ? ticketFromHeaders(result.response.headers) : null) };
    },
    enabled: (query) => query.state.data === undefined,
    staleTime: Infinity,
    gcTime: 0,
    meta: queryMetaFor(auth),
  });
