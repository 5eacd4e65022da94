import {
  archiveArchive,
  historyCsv,
  historyRead,
  historyXlsx,
  reportClassification,
  reportReport,
  thermoResearchMarkers,
  type HistoryDto,
  type ThermoMarkerDto,
} from '@furnace/api-client';
import type { Language } from '@furnace/text';
import { queryOptions } from '@tanstack/react-query';
import { ApiError, unwrap } from '../../api/errors';
import { queryMetaFor, readAuthKey, readHeaders, type ReadAuth } from './read-auth';

/**
 * Buckets of the history the live curves start from: ≤ 1 500 chart points, room for 500 live frames
 * before a series is downsampled again. The live view's bootstrap reads the same, for the curves.
 */
export const LIVE_HISTORY_POINTS = 750;

/** The staff session: the API client adds the stored token itself. */
export const STAFF: ReadAuth = { kind: 'staff' };

export interface HistoryParams {
  /** Most points (buckets) per series, 2…10 000 (the endpoint's bound). */
  points: number;
  /** Range in seconds since the start; both absent: the whole test so far. */
  from?: number;
  to?: number;
  /** Thermocouples whose own series to read (the ticked ones); absent or empty: none, only the scalar and category series. */
  thermoIds?: readonly number[];
}

/** The ids in one order, so that the same set is one query. */
const idsKey = (ids: readonly number[] | undefined) => [...new Set(ids ?? [])].sort((a, b) => a - b);

/** Query keys of the history resource: one shape, built only here; the read auth is part of each. */
export const historyKeys = {
  all: ['history'] as const,
  research: (auth: ReadAuth, researchId: string) => [...historyKeys.all, readAuthKey(auth), researchId] as const,
  series: (auth: ReadAuth, researchId: string, params: HistoryParams) =>
    [
      ...historyKeys.research(auth, researchId),
      'series',
      { points: params.points, from: params.from ?? null, to: params.to ?? null, thermoIds: idsKey(params.thermoIds) },
    ] as const,
  markers: (auth: ReadAuth, researchId: string) => [...historyKeys.research(auth, researchId), 'markers'] as const,
};

/**
 * GET /research/{id}/history?points=&from=&to=&thermo_ids=: the series downsampled with min/max/mean
 * per bucket; a thermocouple's own series only when its id is in `thermoIds` (only what is drawn travels).
 */
export const historyQueryOptions = (auth: ReadAuth, researchId: string, params: HistoryParams) =>
  queryOptions({
    queryKey: historyKeys.series(auth, researchId, params),
    queryFn: ({ signal }): Promise<HistoryDto> =>
      unwrap(
        historyRead({
          path: { id: researchId },
          query: {
            points: params.points,
            from: params.from,
            to: params.to,
            thermo_ids: idsKey(params.thermoIds).length ? idsKey(params.thermoIds) : undefined,
          },
          headers: readHeaders(auth),
          signal,
        }),
      ),
    meta: queryMetaFor(auth),
  });

/** Every thermocouple marker of the research (all its configs): names, colours and categories. */
export const researchMarkersQueryOptions = (auth: ReadAuth, researchId: string) =>
  queryOptions({
    queryKey: historyKeys.markers(auth, researchId),
    queryFn: ({ signal }): Promise<ThermoMarkerDto[]> =>
      unwrap(thermoResearchMarkers({ path: { research_id: researchId }, headers: readHeaders(auth), signal })).then(
        (list) => list.data,
      ),
    meta: queryMetaFor(auth),
  });

type CsvDecimal = 'comma' | 'point';

/**
 * The file name of a Content-Disposition header: filename* (RFC 5987, UTF-8) first, then filename;
 * `fallback` when there is none. Path separators are replaced: the name comes from a server.
 */
export function filenameFromDisposition(header: string | null | undefined, fallback: string): string {
  if (header) {
    const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
    if (extended?.[2]) {
      try {
        return safeName(decodeURIComponent(extended[2].trim()), fallback);
      } catch {
        // A malformed escape: try the plain name.
      }
    }
    const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/i.exec(header);
    const name = plain?.[1] ?? plain?.[2];
    if (name) return safeName(name.trim(), fallback);
  }
  return fallback;
}

function safeName(name: string, fallback: string): string {
  const cleaned = name.replace(/[/\\]/g, '_').trim();
  return cleaned === '' ? fallback : cleaned;
}

/** Saves a blob as a file: an object URL on a temporary link with `download`. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * A file of the history: the CSV (decimal comma or point, with the metadata block or not) and the XLSX
 * workbook with their words in `lang` (the language the dashboard is shown in, docs/behaviour.md §1), the
 * test report as a PDF or the classification report (docs/behaviour.md §11) in Polish or English.
 */
export type HistoryExport =
  | { format: 'csv'; decimal: CsvDecimal; meta: boolean; lang: Language }
  | { format: 'xlsx'; lang: Language }
  | { format: 'pdf'; lang: 'pl' | 'en' }
  | { format: 'classification'; lang: 'pl' | 'en' }
  | { format: 'zip' };

/**
 * Downloads GET /research/{id}/history.csv, history.xlsx, report.pdf, classification.pdf or archive.zip with the
 * staff token (a plain link could not send the Authorization header) and saves it under the server's file name.
 */
export async function downloadHistory(researchId: string, file: HistoryExport): Promise<string> {
  const path = { id: researchId };
  const result =
    file.format === 'csv'
      ? await historyCsv({
          path,
          query: { decimal: file.decimal, meta: file.meta ? '1' : '0', lang: file.lang },
          parseAs: 'blob',
        })
      : file.format === 'xlsx'
        ? await historyXlsx({ path, query: { lang: file.lang }, parseAs: 'blob' })
        : file.format === 'pdf'
          ? await reportReport({ path, query: { lang: file.lang }, parseAs: 'blob' })
          : file.format === 'classification'
            ? await reportClassification({ path, query: { lang: file.lang }, parseAs: 'blob' })
            : await archiveArchive({ path, parseAs: 'blob' });
  // Typed as the document's `string`; parseAs 'blob' makes it a Blob (the bytes, BOM included).
  const data: unknown = result.data;
  if (result.error !== undefined || !result.response?.ok || !(data instanceof Blob)) {
    throw new ApiError(result.response?.status ?? 0, result.error);
  }
  const filename = filenameFromDisposition(
    result.response.headers.get('Content-Disposition'),
    `research-${researchId.slice(0, 8)}.${file.format === 'classification' ? 'pdf' : file.format}`,
  );
  saveBlob(data, filename);
  return filename;
}
