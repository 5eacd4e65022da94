import {
  reportClassification,
  reportReport,
  reviewApprove,
  reviewReopen,
  reviewReview,
  reviewRevisions,
  reviewVerify,
} from '@furnace/api-client';
import { queryOptions } from '@tanstack/react-query';
import { ApiError, unwrap } from '../../api/errors';
import { researchKeys } from '../../api/keys';
import { filenameFromDisposition, saveBlob } from '../stream/history-api';

/* The test's review, approval and reopening, its revisions and their issued documents (docs/behaviour.md, "The permanent record"). */

export const revisionsQueryOptions = (researchId: string) =>
  queryOptions({
    queryKey: researchKeys.revisions(researchId),
    queryFn: ({ signal }) => unwrap(reviewRevisions({ path: { id: researchId }, signal })),
    select: (list) => list.data,
  });

export const reviewResearch = (id: string, comment: string | null) =>
  unwrap(reviewReview({ path: { id }, body: { comment } }));

export const approveResearch = (id: string, comment: string | null) =>
  unwrap(reviewApprove({ path: { id }, body: { comment } }));

export const reopenResearch = (id: string, reason: string) => unwrap(reviewReopen({ path: { id }, body: { reason } }));

export const verifyResearch = (id: string) => unwrap(reviewVerify({ path: { id } }));

/** A document as issued with a revision, saved under the server's name. */
export async function downloadIssued(
  researchId: string,
  revision: number,
  kind: 'report' | 'classification',
  lang: 'pl' | 'en',
): Promise<string> {
  const options = { path: { id: researchId }, query: { lang, revision }, parseAs: 'blob' as const };
  const result = kind === 'report' ? await reportReport(options) : await reportClassification(options);
  // Typed as the document's `string`; parseAs 'blob' makes it a Blob.
  const data: unknown = result.data;
  if (result.error !== undefined || !result.response?.ok || !(data instanceof Blob))
    throw new ApiError(result.response?.status ?? 0, result.error);
  const filename = filenameFromDisposition(
    result.response.headers.get('Content-Disposition'),
    `${kind}-${researchId.slice(0, 8)}-rev${revision}.pdf`,
  );
  saveBlob(data, filename);
  return filename;
}
