import { Button, Card, Group, Paper, Skeleton, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconChartLine, IconEye, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { furnacesQueryOptions } from '../../api/furnaces';
import { researchKeys } from '../../api/keys';
import { deleteResearch } from '../../api/research';
import type { Research } from '../../api/research-types';
import { currentUserQueryOptions } from '../../api/users';
import { confirmDestructive } from '../../components/confirm';
import { PageHeader } from '../../components/PageHeader';
import { formatDateTime } from '../../lib/dates';
import { notifyError, notifySuccess } from '../../lib/notify';
import { ArchiveButton, ArchivedBadge, ShowArchivedSwitch, useResearchList } from '../audit/archive';
import { sortByStartDesc } from './sort';
import { StateBadge } from '../review/StateBadge';
import { ButtonLink } from '../../components/ButtonLink';

export function ResearchListPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // Without the archived tests, unless a superuser switches them on (docs/behaviour.md, "The audit trail").
  const { data: list, isPending, showArchived, setShowArchived } = useResearchList();
  const { data: me } = useQuery(currentUserQueryOptions());
  const canDelete = me?.is_superuser === true;
  const { data: furnaces } = useQuery(furnacesQueryOptions());
  const furnaceName = (research: Research) =>
    research.furnace_id === null ? null : (furnaces?.find((f) => f.id === research.furnace_id)?.name ?? null);

  const remove = useMutation({
    mutationFn: (research: Research) => deleteResearch(research.id),
    onSuccess: () => notifySuccess(t('research.deleted')),
    onError: (error) => notifyError(error, t('research.deleteError')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: researchKeys.all }),
  });

  const askDelete = (research: Research) =>
    confirmDestructive({
      title: t('research.deleteTitle'),
      text: t('research.deleteText', { name: research.name }),
      confirmLabel: t('common.delete'),
      cancelLabel: t('common.cancel'),
      onConfirm: () => remove.mutate(research),
    });

  const rows = list ? sortByStartDesc(list) : [];

  const actions = (research: Research) => (
    <Group gap={6} justify="flex-end">
      <ButtonLink
        to="/research/$researchId/view"
        params={{ researchId: research.id }}
        size="xs"
        variant="light"
        leftSection={<IconEye size={14} aria-hidden />}
      >
        {t('common.preview')}
      </ButtonLink>
      <ButtonLink
        to="/research/$researchId/edit"
        params={{ researchId: research.id }}
        size="xs"
        variant="light"
        color="gray"
        leftSection={<IconPencil size={14} aria-hidden />}
      >
        {t('common.edit')}
      </ButtonLink>
      <ButtonLink
        to="/research/$researchId/history"
        params={{ researchId: research.id }}
        size="xs"
        variant="light"
        color="grape"
        leftSection={<IconChartLine size={14} aria-hidden />}
      >
        {t('link', { ns: 'history' })}
      </ButtonLink>
      <ArchiveButton research={research} />
      <Tooltip label={t('research.deleteOnlySuperuser')} disabled={canDelete}>
        {/* A disabled button gets no pointer events: the wrapper carries the tooltip. */}
        <span>
          <Button
            size="xs"
            variant="light"
            color="red"
            disabled={!canDelete}
            onClick={() => askDelete(research)}
            leftSection={<IconTrash size={14} aria-hidden />}
          >
            {t('common.delete')}
          </Button>
        </span>
      </Tooltip>
    </Group>
  );

  return (
    <>
      <PageHeader
        title={t('research.listTitle')}
        actions={
          <>
            {canDelete ? <ShowArchivedSwitch checked={showArchived} onChange={setShowArchived} /> : null}
            <ButtonLink to="/research/add" leftSection={<IconPlus size={16} aria-hidden />}>
              {t('nav.addResearch')}
            </ButtonLink>
          </>
        }
      />
      {isPending ? (
        <Stack gap="xs">
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} height={44} radius="md" />
          ))}
        </Stack>
      ) : rows.length === 0 ? (
        <Paper withBorder radius="lg" p="xl">
          <Text c="dimmed" ta="center">
            {t('research.empty')}
          </Text>
        </Paper>
      ) : (
        <>
          <Paper withBorder radius="lg" visibleFrom="md" style={{ overflow: 'hidden' }}>
            <Table striped highlightOnHover verticalSpacing="sm" horizontalSpacing="md" data-testid="research-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('research.name')}</Table.Th>
                  <Table.Th>{t('state.label', { ns: 'review' })}</Table.Th>
                  <Table.Th>{t('research.furnaceColumn', { ns: 'lab' })}</Table.Th>
                  <Table.Th>{t('research.startAt')}</Table.Th>
                  <Table.Th>{t('research.endAt')}</Table.Th>
                  <Table.Th ta="right">{t('research.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((research) => (
                  <Table.Tr key={research.id}>
                    <Table.Td fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {research.name}
                      <ArchivedBadge research={research} />
                    </Table.Td>
                    <Table.Td>
                      <StateBadge research={research} />
                    </Table.Td>
                    <Table.Td data-testid="research-furnace-cell">{furnaceName(research) ?? '—'}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(research.start_at)}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(research.end_at)}</Table.Td>
                    <Table.Td>{actions(research)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
          <Stack gap="sm" hiddenFrom="md" data-testid="research-cards">
            {rows.map((research) => (
              <Card key={research.id} withBorder radius="lg" padding="md">
                <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                  <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
                    {research.name}
                    <ArchivedBadge research={research} />
                  </Text>
                  <StateBadge research={research} />
                </Group>
                {furnaceName(research) ? (
                  <Text size="sm" c="dimmed" mt={4}>
                    {t('research.furnaceColumn', { ns: 'lab' })}: {furnaceName(research)}
                  </Text>
                ) : null}
                <Text size="sm" c="dimmed" mt={4}>
                  {t('research.startAt')}: {formatDateTime(research.start_at)}
                </Text>
                <Text size="sm" c="dimmed">
                  {t('research.endAt')}: {formatDateTime(research.end_at)}
                </Text>
                <Group mt="sm" justify="flex-start">
                  {actions(research)}
                </Group>
              </Card>
            ))}
          </Stack>
        </>
      )}
    </>
  );
}
