import {
  furnacesCreate,
  furnacesDelete,
  furnacesIssueDaqCredential,
  furnacesList,
  furnacesUpdate,
  unassignedAttach,
  unassignedList,
  type AttachUnassignedDto,
  type DaqCredentialIssuedDto,
  type FurnaceCreateDtoWritable,
  type FurnaceDto,
  type FurnaceUpdateDtoWritable,
  type UnassignedRangeDto,
} from '@furnace/api-client';
import { queryOptions } from '@tanstack/react-query';
import { unwrap } from './errors';
import { furnaceKeys } from './keys';

export type Furnace = FurnaceDto;

/** Every furnace, by code (docs/behaviour.md §15): staff read them, superusers change them. */
export const furnacesQueryOptions = () =>
  queryOptions({
    queryKey: furnaceKeys.list(),
    queryFn: ({ signal }) => unwrap(furnacesList({ signal })),
    select: (list) => list.data,
    staleTime: 30_000,
  });

export const createFurnace = (body: FurnaceCreateDtoWritable) => unwrap(furnacesCreate({ body }));
export const updateFurnace = (id: string, body: FurnaceUpdateDtoWritable) =>
  unwrap(furnacesUpdate({ path: { furnace_id: id }, body }));
export const deleteFurnace = (id: string) => unwrap(furnacesDelete({ path: { furnace_id: id } }));

export type IssuedDaqCredential = DaqCredentialIssuedDto;

/** Issues the furnace's DAQ credential, or rotates it (docs/behaviour.md §16): the password is in this answer only. */
export const issueDaqCredential = (id: string) => unwrap(furnacesIssueDaqCredential({ path: { furnace_id: id } }));

export type UnassignedRange = UnassignedRangeDto;

/**
 * A furnace's unassigned readings as ranges, oldest first (docs/behaviour.md §15.1): staff read them. Asked again
 * every 15 s while shown: the furnace's DAQ may be sending them now.
 */
export const unassignedQueryOptions = (furnaceId: string) =>
  queryOptions({
    queryKey: furnaceKeys.unassigned(furnaceId),
    queryFn: ({ signal }) => unwrap(unassignedList({ path: { furnace_id: furnaceId }, signal })),
    refetchInterval: 15_000,
  });

/** Attaches the furnace's unassigned readings from `from` to `to` to a test on it (docs/behaviour.md §15.1). */
export const attachUnassigned = (furnaceId: string, body: AttachUnassignedDto) =>
  unwrap(unassignedAttach({ path: { furnace_id: furnaceId }, body }));
