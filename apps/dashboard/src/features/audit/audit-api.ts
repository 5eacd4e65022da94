import { auditResearch, auditSearch, researchArchive, researchList, researchUnarchive } from '@furnace/api-client';
import { queryOptions } from '@tanstack/react-query';
import { unwrap } from '../../api/errors';
import { researchKeys } from '../../api/keys';

/** Entries a page of a test's change history shows, and of the superusers' page. */
export const RESEARCH_AUDIT_PAGE_SIZE = 20;
export const AUDIT_PAGE_SIZE = 50;

/** The whole trail's filters (GET /audit): who made the change, the test, the time (ISO instants). */
export interface AuditFilters {
  actor?: string;
  research_id?: string;
  from?: string;
  to?: string;
}

const auditKeys = {
  all: ['audit'] as const,
  // Under the research's own key: whatever refetches the research refetches its history.
  research: (researchId: string, page: number) => [...researchKeys.detail(researchId), 'audit', { page }] as const,
  search: (filters: AuditFilters, page: number) => [...auditKeys.all, { ...filters, page }] as const,
};

export const researchAuditQueryOptions = (researchId: string, page: number) =>
  queryOptions({
    queryKey: auditKeys.research(researchId, page),
    queryFn: ({ signal }) =>
      unwrap(auditResearch({ path: { id: researchId }, query: { page, per_page: RESEARCH_AUDIT_PAGE_SIZE }, signal })),
  });

export const auditSearchQueryOptions = (filters: AuditFilters, page: number) =>
  queryOptions({
    queryKey: auditKeys.search(filters, page),
    queryFn: ({ signal }) => unwrap(auditSearch({ query: { ...filters, page, per_page: AUDIT_PAGE_SIZE }, signal })),
  });

/** Every research, the archived ones too (superusers). */
export const researchListWithArchivedQueryOptions = () =>
  queryOptions({
    queryKey: [...researchKeys.list(), 'with-archived'] as const,
    queryFn: ({ signal }) => unwrap(researchList({ query: { include_archived: 'true' }, signal })),
    select: (list) => list.data,
  });

export const archiveResearch = (id: string) => unwrap(researchArchive({ path: { id } }));
export const unarchiveResearch = (id: string) => unwrap(researchUnarchive({ path: { id } }));
