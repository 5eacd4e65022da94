import {
  furnacesCreate,
  furnacesDelete,
  furnacesList,
  furnacesUpdate,
  type FurnaceCreateDto,
  type FurnaceDto,
  type FurnaceUpdateDto,
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

export const createFurnace = (body: FurnaceCreateDto) => unwrap(furnacesCreate({ body }));
export const updateFurnace = (id: string, body: FurnaceUpdateDto) =>
  unwrap(furnacesUpdate({ path: { furnace_id: id }, body }));
export const deleteFurnace = (id: string) => unwrap(furnacesDelete({ path: { furnace_id: id } }));
