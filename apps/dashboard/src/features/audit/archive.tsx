import { Alert, Badge, Button, Switch, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconArchive, IconArchiveOff } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { researchKeys } from '../../api/keys';
import { researchListQueryOptions } from '../../api/research';
import type { Research } from '../../api/research-types';
import { currentUserQueryOptions } from '../../api/users';
import { formatDateTime } from '../../lib/dates';
import { notifyError, notifySuccess } from '../../lib/notify';
import { archiveResearch, researchListWithArchivedQueryOptions, unarchiveResearch } from './audit-api';

/*
 * Archiving (docs/behaviour.md, "The audit trail"): a superuser archives a test instead of deleting it; archived
 * tests leave the lists, keep every row, and still open by their id.
 */

const useIsSuperuser = () => useQuery(currentUserQueryOptions()).data?.is_superuser === true;

/** The research list: without the archived tests, or with them when a superuser asks (`showArchived`). */
export function useResearchList() {
  const isSuperuser = useIsSuperuser();
  const [showArchived, setShowArchived] = useState(false);
  const withArchived = showArchived && isSuperuser;
  const active = useQuery({ ...researchListQueryOptions(), enabled: !withArchived });
  const all = useQuery({ ...researchListWithArchivedQueryOptions(), enabled: withArchived });
  const { data, isPending } = withArchived ? all : active;
  return { data, isPending, isSuperuser, showArchived: withArchived, setShowArchived };
}

/** "Pokaż zarchiwizowane" above the list, for superusers. */
export function ShowArchivedSwitch({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  const { t } = useTranslation('audit');
  return (
    <Switch
      label={t('archive.show')}
      checked={checked}
      onChange={(e) => onChange(e.currentTarget.checked)}
      data-testid="show-archived"
    />
  );
}

export function ArchivedBadge({ research }: { research: Research }) {
  const { t } = useTranslation('audit');
  if (!research.archived_at) return null;
  return (
    <Badge component="span" size="sm" variant="light" color="gray" tt="none" ml={6}>
      {t('archive.badge')}
    </Badge>
  );
}

/** Archive (after a confirmation) or restore a test; superusers only, nothing for anyone else. */
export function ArchiveButton({ research }: { research: Research }) {
  const { t } = useTranslation('audit');
  const { t: common } = useTranslation();
  const isSuperuser = useIsSuperuser();
  const queryClient = useQueryClient();
  const archived = research.archived_at !== null;
  const change = useMutation({
    mutationFn: () => (archived ? unarchiveResearch(research.id) : archiveResearch(research.id)),
    onSuccess: () => notifySuccess(archived ? t('archive.restored') : t('archive.archived')),
    onError: (error) => notifyError(error, t('archive.error')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: researchKeys.all }),
  });
  if (!isSuperuser) return null;
  const ask = () =>
    modals.openConfirmModal({
      title: t('archive.title'),
      centered: true,
      closeButtonProps: { 'aria-label': common('common.close') },
      children: <Text size="sm">{t('archive.text', { name: research.name })}</Text>,
      labels: { confirm: t('archive.action'), cancel: common('common.cancel') },
      confirmProps: { 'data-testid': 'confirm-archive' },
      cancelProps: { variant: 'default' },
      onConfirm: () => change.mutate(),
    });
  return (
    <Button
      size="xs"
      variant="light"
      color="gray"
      loading={change.isPending}
      onClick={() => (archived ? change.mutate() : ask())}
      leftSection={archived ? <IconArchiveOff size={14} aria-hidden /> : <IconArchive size={14} aria-hidden />}
    >
      {archived ? t('archive.restore') : t('archive.action')}
    </Button>
  );
}

/** On an archived test's edit page: that it is archived, when and by whom, and (superusers) the way back. */
export function ArchivedNotice({ research }: { research: Research }) {
  const { t } = useTranslation('audit');
  if (!research.archived_at) return null;
  return (
    <Alert color="gray" icon={<IconArchive aria-hidden />} title={t('archive.badge')} data-testid="archived-notice">
      <Text size="sm" mb="xs">
        {t('archive.notice', { at: formatDateTime(research.archived_at), by: research.archived_by ?? t('system') })}
      </Text>
      <ArchiveButton research={research} />
    </Alert>
  );
}
