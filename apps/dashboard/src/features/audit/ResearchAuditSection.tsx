import { Skeleton, Text } from '@mantine/core';
import { keepPreviousData, useIsMutating, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Section } from '../../components/Section';
import { errorMessage } from '../../lib/notify';
import { RESEARCH_AUDIT_PAGE_SIZE, researchAuditQueryOptions } from './audit-api';
import { AuditPagination } from './AuditPagination';
import { AuditTable } from './AuditTable';

/** "Historia zmian" of the edit page: the test's audit trail, newest first, a page at a time (staff). */
export function ResearchAuditSection({ researchId }: { researchId: string }) {
  const { t } = useTranslation('audit');
  const [page, setPage] = useState(1);
  const { data, error, isPending, isPlaceholderData, refetch } = useQuery({
    ...researchAuditQueryOptions(researchId, page),
    placeholderData: keepPreviousData,
  });

  // Every section of the page changes the test through a mutation: once the last one settles, the history has a new entry.
  const mutating = useIsMutating();
  const wasMutating = useRef(false);
  useEffect(() => {
    if (mutating > 0) wasMutating.current = true;
    else if (wasMutating.current) {
      wasMutating.current = false;
      void refetch();
    }
  }, [mutating, refetch]);

  return (
    <Section title={t('title')}>
      <Text size="sm" c="dimmed">
        {t('hint')}
      </Text>
      {isPending ? <Skeleton height={120} /> : null}
      {error && !data ? (
        <Text size="sm" c="red" role="alert">
          {t('loadError')}: {errorMessage(error)}
        </Text>
      ) : null}
      {data && data.count === 0 ? (
        <Text size="sm" c="dimmed">
          {t('empty')}
        </Text>
      ) : null}
      {data && data.count > 0 ? (
        <div style={{ opacity: isPlaceholderData ? 0.6 : 1 }} data-testid="research-audit">
          <AuditTable entries={data.data} />
          <AuditPagination page={page} count={data.count} pageSize={RESEARCH_AUDIT_PAGE_SIZE} onChange={setPage} />
        </div>
      ) : null}
    </Section>
  );
}
