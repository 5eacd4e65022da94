/** Query-key factories: every cached resource has one key shape, built only here. */
export const userKeys = {
  all: ['users'] as const,
  me: () => [...userKeys.all, 'me'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  page: (page: number) => [...userKeys.lists(), { page }] as const,
};

export const researchKeys = {
  all: ['research'] as const,
  list: () => [...researchKeys.all, 'list'] as const,
  detail: (id: string) => [...researchKeys.all, 'detail', id] as const,
  urls: (id: string) => [...researchKeys.detail(id), 'urls'] as const,
  emails: (id: string) => [...researchKeys.detail(id), 'emails'] as const,
  thermo: (id: string) => [...researchKeys.detail(id), 'thermo'] as const,
  drawings: (id: string) => [...researchKeys.detail(id), 'drawings'] as const,
  revisions: (id: string) => [...researchKeys.detail(id), 'revisions'] as const,
};

export const thermoKeys = {
  all: ['thermo'] as const,
  coords: (configId: string) => [...thermoKeys.all, configId, 'coords'] as const,
  image: (configId: string) => [...thermoKeys.all, configId, 'image'] as const,
};

export const furnaceKeys = {
  all: ['furnaces'] as const,
  list: () => [...furnaceKeys.all, 'list'] as const,
  unassigned: (id: string) => [...furnaceKeys.all, 'unassigned', id] as const,
};
