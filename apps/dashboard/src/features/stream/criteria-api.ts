import {
  criteriaCreateExclusion,
  criteriaCreateObservation,
  criteriaCriteriaOf,
  criteriaDeleteExclusion,
  criteriaDeleteObservation,
  criteriaExclusions,
  criteriaObservations,
  criteriaUpdateObservation,
  researchUpdate,
  type ObservationCreateDto,
  type ObservationDto,
  type ObservationUpdateDto,
  type ThermoExclusionCreateDto,
  type ThermoExclusionDto,
} from '@furnace/api-client';
import { queryOptions } from '@tanstack/react-query';
import { unwrap } from '../../api/errors';
import { historyKeys } from './history-api';
import { liveKeys } from './live-keys';
import { LIVE_FRESH_MS } from './live-queries';
import { queryMetaFor, type ReadAuth, readHeaders } from './read-auth';

/*
 * The criteria resources: observations and exclusions (live view, monitor, history) and the
 * criteria the API keeps (history page, replay; the live view and the monitor get them on the stream).
 */

/** Observations in time order (a viewer gets only those visible to clients). */
export const observationsQuery = (auth: ReadAuth, researchId: string) =>
  queryOptions({
    queryKey: liveKeys.observations(auth, researchId),
    queryFn: ({ signal }): Promise<ObservationDto[]> =>
      unwrap(criteriaObservations({ path: { id: researchId }, headers: readHeaders(auth), signal })).then(
        (list) => list.data,
      ),
    staleTime: LIVE_FRESH_MS,
    meta: queryMetaFor(auth),
  });

export const exclusionsQuery = (auth: ReadAuth, researchId: string) =>
  queryOptions({
    queryKey: liveKeys.exclusions(auth, researchId),
    queryFn: ({ signal }): Promise<ThermoExclusionDto[]> =>
      unwrap(criteriaExclusions({ path: { id: researchId }, headers: readHeaders(auth), signal })).then(
        (list) => list.data,
      ),
    staleTime: LIVE_FRESH_MS,
    meta: queryMetaFor(auth),
  });

/** GET /research/{id}/criteria: the criteria the server keeps (history page, the replay's T0, the live view's fallback when the stream sends no CRITERIA). */
export const criteriaSnapshotQuery = (auth: ReadAuth, researchId: string) =>
  queryOptions({
    queryKey: [...historyKeys.research(auth, researchId), 'criteria'] as const,
    queryFn: ({ signal }) =>
      unwrap(criteriaCriteriaOf({ path: { id: researchId }, headers: readHeaders(auth), signal })),
    meta: queryMetaFor(auth),
  });

// --- Staff changes ------------------------------------------------------------------------------

export const createObservation = (researchId: string, body: ObservationCreateDto) =>
  unwrap(criteriaCreateObservation({ path: { id: researchId }, body }));
export const updateObservation = (id: string, body: ObservationUpdateDto) =>
  unwrap(criteriaUpdateObservation({ path: { id }, body }));
export const deleteObservation = (id: string) => unwrap(criteriaDeleteObservation({ path: { id } }));
export const createExclusion = (researchId: string, body: ThermoExclusionCreateDto) =>
  unwrap(criteriaCreateExclusion({ path: { id: researchId }, body }));
export const deleteExclusion = (id: string) => unwrap(criteriaDeleteExclusion({ path: { id } }));
/** T0 by hand (null: back to automatic). */
export const setT0Override = (researchId: string, t0: number | null) =>
  unwrap(researchUpdate({ path: { id: researchId }, body: { t0_override: t0 } }));
