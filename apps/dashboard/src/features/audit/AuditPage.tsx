import { Button, Group, Paper, Select, SimpleGrid, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconFilterOff } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { datetimeLocalToIso, formatDateTime, isoToDatetimeLocal } from '../../lib/dates';
import { errorMessage } from '../../lib/notify';
import {
  AUDIT_PAGE_SIZE,
  type AuditFilters,
  auditSearchQueryOptions,
  researchListWithArchivedQueryOptions,
} from './audit-api';
import { ArchiveImport } from './ArchiveImport';
import { AuditPagination } from './AuditPagination';
import { AuditTable } from './AuditTable';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The whole audit trail (superusers, /audit): every change to any test and to any user's account, filtered by who
 * made it, the test and the time. The filters live in the address, so a filtered view can be shared.
 */
export function AuditPage({
  filters,
  page,
  onChange,
}: {
  filters: AuditFilters;
  page: number;
  onChange: (filters: AuditFilters, page: number) => void;
}) {
  const { t } = useTranslation('audit');
  const { data, error, isPending, isPlaceholderData } = useQuery({
    ...auditSearchQueryOptions(filters, page),
    placeholderData: keepPreviousData,
  });
  const { data: researches } = useQuery(researchListWithArchivedQueryOptions());
  const [actor, setActor] = useState(filters.actor ?? '');
  useEffect(() => setActor(filters.actor ?? ''), [filters.actor]);
  const actorInvalid = actor.trim() !== '' && !EMAIL.test(actor.trim());

  const set = (change: Partial<AuditFilters>) => {
    const next = { ...filters, ...change };
    const kept = Object.fromEntries(
      Object.entries(next).filter(([, v]) => v !== undefined && v !== ''),
    ) as AuditFilters;
    onChange(kept, 1);
  };
  const applyActor = () => {
    if (!actorInvalid && actor.trim() !== (filters.actor ?? '')) set({ actor: actor.trim() || undefined });
  };
  const researchOptions = (researches ?? []).map((r) => ({
    value: r.id,
    label: `${r.name} · ${formatDateTime(r.start_at)}`,
  }));
  // A research deleted since is not on the list: its id still filters.
  if (filters.research_id && !researchOptions.some((o) => o.value === filters.research_id)) {
    researchOptions.unshift({ value: filters.research_id, label: filters.research_id });
  }

  return (
    <>
      <PageHeader title={t('page.title')} />
      <Stack gap="md">
        <Paper withBorder radius="lg" p="md" component="section" aria-label={t('page.filters')}>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
            <TextInput
              label={t('page.actor')}
              type="email"
              value={actor}
              onChange={(e) => setActor(e.currentTarget.value)}
              onBlur={applyActor}
              onKeyDown={(e) => {
                if (e.key === 'Enter') applyActor();
              }}
              error={actorInvalid ? t('page.invalidActor') : undefined}
              data-testid="audit-actor"
            />
            <Select
              label={t('page.research')}
              placeholder={t('page.anyResearch')}
              data={researchOptions}
              value={filters.research_id ?? null}
              onChange={(value) => set({ research_id: value ?? undefined })}
              searchable
              clearable
              nothingFoundMessage={t('empty')}
              data-testid="audit-research"
            />
            <TextInput
              label={t('page.from')}
              type="datetime-local"
              value={filters.from ? isoToDatetimeLocal(filters.from) : ''}
              onChange={(e) => set({ from: datetimeLocalToIso(e.currentTarget.value) ?? undefined })}
            />
            <TextInput
              label={t('page.to')}
              type="datetime-local"
              value={filters.to ? isoToDatetimeLocal(filters.to) : ''}
              onChange={(e) => set({ to: datetimeLocalToIso(e.currentTarget.value) ?? undefined })}
            />
          </SimpleGrid>
          <Group justify="flex-end" mt="sm">
            <Button
              variant="subtle"
              size="xs"
              leftSection={<IconFilterOff size={14} aria-hidden />}
              onClick={() => onChange({}, 1)}
              disabled={Object.keys(filters).length === 0}
            >
              {t('page.clear')}
            </Button>
          </Group>
        </Paper>
        <Paper withBorder radius="lg" p={{ base: 'xs', sm: 'md' }} style={{ opacity: isPlaceholderData ? 0.6 : 1 }}>
          {isPending ? <Skeleton height={200} /> : null}
          {error && !data ? (
            <Text size="sm" c="red" role="alert">
              {t('loadError')}: {errorMessage(error)}
            </Text>
          ) : null}
          {data && data.count === 0 ? (
            <Text size="sm" c="dimmed" ta="center" p="md">
              {t('empty')}
            </Text>
          ) : null}
          {data && data.count > 0 ? (
            <>
              <AuditTable entries={data.data} showResearch />
              <AuditPagination
                page={page}
                count={data.count}
                pageSize={AUDIT_PAGE_SIZE}
                onChange={(next) => onChange(filters, next)}
              />
            </>
          ) : null}
        </Paper>
        <ArchiveImport />
      </Stack>
    </>
  );
}
