import {
  researchGet,
  researchListUrls,
  researchViewerToken,
  thermoImage,
  thermoList,
  thermoResearchMarkers,
} from '@furnace/api-client';
import { queryOptions } from '@tanstack/react-query';
import { unwrap } from '../../api/errors';
import { liveKeys } from './live-keys';
import { PUBLIC_VIEW_META, type ReadAuth, queryMetaFor, readHeaders } from './read-auth';

/*
 * What the live view reads, as staff (their session) or as a viewer (the token exchanged for the
 * invitation code): one query-options function per resource.
 */

/**
 * How long a live screen's reads stay fresh (the app's default, stated for them): mounted just after
 * the bootstrap seeded them (live-bootstrap.ts), they find fresh data and read nothing. The stream's
 * UPDATE notices refetch them whatever their age.
 */
export const LIVE_FRESH_MS = 10_000;

export const liveResearchQuery = (auth: ReadAuth, researchId: string) =>
  queryOptions({
    queryKey: liveKeys.research(auth, researchId),
    queryFn: ({ signal }) => unwrap(researchGet({ path: { id: researchId }, headers: readHeaders(auth), signal })),
    staleTime: LIVE_FRESH_MS,
    meta: queryMetaFor(auth),
  });

export const liveUrlsQuery = (auth: ReadAuth, researchId: string) =>
  queryOptions({
    queryKey: liveKeys.urls(auth, researchId),
    queryFn: ({ signal }) =>
      unwrap(researchListUrls({ path: { research_id: researchId }, headers: readHeaders(auth), signal })),
    select: (list) => list.data,
    staleTime: LIVE_FRESH_MS,
    meta: queryMetaFor(auth),
  });

export const liveConfigsQuery = (auth: ReadAuth, researchId: string) =>
  queryOptions({
    queryKey: liveKeys.configs(auth, researchId),
    queryFn: ({ signal }) =>
      unwrap(thermoList({ path: { research_id: researchId }, headers: readHeaders(auth), signal })),
    select: (list) => list.data,
    staleTime: LIVE_FRESH_MS,
    meta: queryMetaFor(auth),
  });

/** Every marker of the research (all its configs) in one call. */
export const liveMarkersQuery = (auth: ReadAuth, researchId: string) =>
  queryOptions({
    queryKey: liveKeys.markers(auth, researchId),
    queryFn: ({ signal }) =>
      unwrap(thermoResearchMarkers({ path: { research_id: researchId }, headers: readHeaders(auth), signal })),
    select: (list) => list.data,
    staleTime: LIVE_FRESH_MS,
    meta: queryMetaFor(auth),
  });

export const liveImageQuery = (auth: ReadAuth, researchId: string, configId: string) =>
  queryOptions({
    queryKey: liveKeys.image(auth, researchId, configId),
    queryFn: ({ signal }): Promise<Blob> =>
      unwrap(thermoImage({ path: { id: configId }, parseAs: 'blob', headers: readHeaders(auth), signal })),
    staleTime: Infinity,
    meta: queryMetaFor(auth),
  });

/** Viewer tokens last 12 h: exchange the code again a little before that. */
const VIEWER_TOKEN_REFRESH_MS = 11 * 3600_000;

/**
 * The invitation code exchanged for a viewer token (404: no such research; 403: the code is not one
 * of its invitations). Never retried: neither answer changes on another try.
 */
export const viewerTokenQuery = (researchId: string, code: string) =>
  queryOptions({
    queryKey: liveKeys.viewerToken(researchId, code),
    queryFn: ({ signal }) => unwrap(researchViewerToken({ path: { id: researchId }, body: { code }, signal })),
    staleTime: VIEWER_TOKEN_REFRESH_MS,
    refetchInterval: VIEWER_TOKEN_REFRESH_MS,
    gcTime: 0,
    retry: false,
    meta: PUBLIC_VIEW_META,
  });
