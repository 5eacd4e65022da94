import {
  drawingsDelete,
  drawingsDownload,
  drawingsList,
  emailsCreate,
  emailsDelete,
  emailsList,
  emailsSend,
  emailsSendAll,
  researchCreate,
  researchCreateUrl,
  researchDelete,
  researchDeleteUrl,
  researchGet,
  researchList,
  researchListUrls,
  researchUpdate,
  thermoConfig,
  thermoConfigMarkers,
  thermoDelete,
  thermoImage,
  thermoList,
  thermoReplaceConfig,
} from '@furnace/api-client';
import type { Language } from '@furnace/text';
import { queryOptions } from '@tanstack/react-query';
import { unwrap } from './errors';
import { researchKeys, thermoKeys } from './keys';
import type { Drawing, ResearchCreate, ResearchUpdate, ThermoConfig } from './research-types';
import { uploadForm, type UploadProgress } from './upload';

// --- Queries (one query-options function per resource) ------------------------------------------

export const researchListQueryOptions = () =>
  queryOptions({
    queryKey: researchKeys.list(),
    queryFn: ({ signal }) => unwrap(researchList({ signal })),
    select: (list) => list.data,
  });

export const researchQueryOptions = (id: string) =>
  queryOptions({
    queryKey: researchKeys.detail(id),
    queryFn: ({ signal }) => unwrap(researchGet({ path: { id }, signal })),
  });

export const researchUrlsQueryOptions = (researchId: string) =>
  queryOptions({
    queryKey: researchKeys.urls(researchId),
    queryFn: ({ signal }) => unwrap(researchListUrls({ path: { research_id: researchId }, signal })),
    select: (list) => list.data,
  });

export const researchEmailsQueryOptions = (researchId: string) =>
  queryOptions({
    queryKey: researchKeys.emails(researchId),
    queryFn: ({ signal }) => unwrap(emailsList({ path: { research_id: researchId }, signal })),
    select: (list) => list.data,
  });

export const thermoConfigsQueryOptions = (researchId: string) =>
  queryOptions({
    queryKey: researchKeys.thermo(researchId),
    queryFn: ({ signal }) => unwrap(thermoList({ path: { research_id: researchId }, signal })),
    select: (list) => list.data,
  });

export const thermoCoordsQueryOptions = (configId: string) =>
  queryOptions({
    queryKey: thermoKeys.coords(configId),
    queryFn: ({ signal }) => unwrap(thermoConfigMarkers({ path: { config_id: configId }, signal })),
    select: (list) => list.data,
    // Changed only by this dashboard's editor, which invalidates them when it saves (docs/behaviour.md §4.8).
    staleTime: Infinity,
  });

export const thermoImageQueryOptions = (configId: string) =>
  queryOptions({
    queryKey: thermoKeys.image(configId),
    queryFn: ({ signal }): Promise<Blob> => unwrap(thermoImage({ path: { id: configId }, parseAs: 'blob', signal })),
    staleTime: Infinity,
  });

export const drawingsQueryOptions = (researchId: string) =>
  queryOptions({
    queryKey: researchKeys.drawings(researchId),
    queryFn: ({ signal }) => unwrap(drawingsList({ path: { research_id: researchId }, signal })),
    select: (list) => list.data,
  });

// --- Mutations ----------------------------------------------------------------------------------

export const createResearch = (body: ResearchCreate) => unwrap(researchCreate({ body }));
export const updateResearch = (id: string, body: ResearchUpdate) => unwrap(researchUpdate({ path: { id }, body }));
export const deleteResearch = (id: string) => unwrap(researchDelete({ path: { id } }));

export const addResearchUrl = (researchId: string, url: string) =>
  unwrap(researchCreateUrl({ body: { url, research_id: researchId } }));
export const deleteResearchUrl = (id: string) => unwrap(researchDeleteUrl({ path: { id } }));

/** A client's address; `lang`: the language of their invitation (left out, Polish: docs/behaviour.md §1). */
export const addResearchEmail = (researchId: string, email: string, lang?: Language) =>
  unwrap(emailsCreate({ body: { research_id: researchId, email, ...(lang ? { lang } : {}) } }));
export const deleteResearchEmail = (id: string) => unwrap(emailsDelete({ path: { id } }));
export const sendResearchEmail = (id: string) => unwrap(emailsSend({ path: { id } }));
export const sendAllResearchEmails = (researchId: string) =>
  unwrap(emailsSendAll({ path: { research_id: researchId } }));

export const deleteThermoConfig = (id: string) => unwrap(thermoDelete({ path: { id } }));

/**
 * Uploads one photo + config pair (multipart: research_id, image_file, config_file), reporting upload
 * progress: the generated thermoCreate uses fetch, which cannot report it.
 */
export function uploadThermoConfig(
  researchId: string,
  image: File,
  config: File,
  onProgress?: (progress: UploadProgress) => void,
): Promise<ThermoConfig> {
  const form = new FormData();
  form.append('research_id', researchId);
  form.append('image_file', image, image.name);
  form.append('config_file', config, config.name);
  return uploadForm<ThermoConfig>('/api/v1/research/thermo', form, onProgress);
}

/** Replaces a config's markers with the editor's config file (same parser and checks as an upload). */
export const replaceThermoConfig = (configId: string, file: File) =>
  unwrap(thermoReplaceConfig({ path: { id: configId }, body: { config_file: file } }));

/** The config file as stored (what was uploaded, or what the editor saved last). */
export const thermoConfigFile = async (configId: string): Promise<Blob> => {
  // Typed as the document's `Blob | File`; parseAs 'blob' makes it a Blob.
  const data: unknown = await unwrap(thermoConfig({ path: { id: configId }, parseAs: 'blob' }));
  return data instanceof Blob ? data : new Blob([String(data)], { type: 'text/plain' });
};

/** Attaches a drawing of the specimen (a PDF, PNG or JPEG), reporting upload progress. */
export function uploadDrawing(
  researchId: string,
  file: File,
  onProgress?: (progress: UploadProgress) => void,
): Promise<Drawing> {
  const form = new FormData();
  form.append('file', file, file.name);
  return uploadForm<Drawing>(`/api/v1/research/${researchId}/drawings`, form, onProgress);
}

export const deleteDrawing = (researchId: string, id: string) =>
  unwrap(drawingsDelete({ path: { research_id: researchId, id } }));

/** A drawing's file as stored. */
export const drawingFile = async (researchId: string, id: string): Promise<Blob> => {
  // Typed as the document's binary string; parseAs 'blob' makes it a Blob.
  const data: unknown = await unwrap(drawingsDownload({ path: { research_id: researchId, id }, parseAs: 'blob' }));
  if (!(data instanceof Blob)) throw new Error('The drawing did not arrive as a file');
  return data;
};
