import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Menu,
  Modal,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { IconDots, IconKey, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { isHeatingCurveId, isTestStandard } from '@furnace/criteria';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  createFurnace,
  deleteFurnace,
  furnacesQueryOptions,
  issueDaqCredential,
  updateFurnace,
  type Furnace,
  type IssuedDaqCredential,
} from '../../api/furnaces';
import { furnaceKeys } from '../../api/keys';
import { currentUserQueryOptions } from '../../api/users';
import { confirmDestructive } from '../../components/confirm';
import { PageHeader } from '../../components/PageHeader';
import { formatDateTime } from '../../lib/dates';
import { notifyError, notifySuccess } from '../../lib/notify';
import { FurnaceForm, toFurnaceBody, type FurnaceFormValues } from './FurnaceForm';
import { UnassignedReadings } from './UnassignedReadings';

type Dialog = { kind: 'create' } | { kind: 'edit'; furnace: Furnace } | null;

/**
 * The lab's furnaces (docs/behaviour.md §15): staff see the list and the unassigned readings, and attach them;
 * superusers also add, change and delete furnaces and issue their DAQ credentials.
 */
export function FurnacesPage() {
  const { t } = useTranslation('lab');
  const { t: tc } = useTranslation('criteria');
  const queryClient = useQueryClient();
  const { data: furnaces, isPending, isError } = useQuery(furnacesQueryOptions());
  const { data: me } = useQuery(currentUserQueryOptions());
  const superuser = me?.is_superuser === true;
  const [dialog, setDialog] = useState<Dialog>(null);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: furnaceKeys.all });
  const ok = (promise: Promise<unknown>) =>
    promise.then(
      () => true,
      () => false,
    );

  const create = useMutation({
    mutationFn: (values: FurnaceFormValues) => createFurnace(toFurnaceBody(values)),
    onSuccess: () => {
      notifySuccess(t('furnaces.created'));
      setDialog(null);
    },
    onError: (error) => notifyError(error),
    onSettled: invalidate,
  });
  const update = useMutation({
    mutationFn: ({ furnace, values }: { furnace: Furnace; values: FurnaceFormValues }) =>
      updateFurnace(furnace.id, toFurnaceBody(values)),
    onSuccess: () => {
      notifySuccess(t('furnaces.updated'));
      setDialog(null);
    },
    onError: (error) => notifyError(error),
    onSettled: invalidate,
  });
  // A furnace with tests is refused (409): the toast shows the API's reason under the failure.
  const remove = useMutation({
    mutationFn: (furnace: Furnace) => deleteFurnace(furnace.id),
    onSuccess: () => notifySuccess(t('furnaces.deleted')),
    onError: (error) => notifyError(error, t('furnaces.deleteError')),
    onSettled: invalidate,
  });
  // The password is in this answer only (docs/behaviour.md §16): shown once in a dialog, never fetched again.
  const [issued, setIssued] = useState<{ furnace: Furnace; credential: IssuedDaqCredential } | null>(null);
  const issue = useMutation({
    mutationFn: (furnace: Furnace) => issueDaqCredential(furnace.id),
    onSuccess: (credential, furnace) => setIssued({ furnace, credential }),
    onError: (error) => notifyError(error, t('furnaces.daqError')),
    onSettled: invalidate,
  });
  const askIssue = (furnace: Furnace) =>
    furnace.daq_credential === null
      ? issue.mutate(furnace)
      : confirmDestructive({
          title: t('furnaces.daqRotate'),
          text: t('furnaces.daqRotateText', { name: furnace.name }),
          confirmLabel: t('furnaces.daqRotate'),
          cancelLabel: t('furnaces.cancel'),
          onConfirm: () => issue.mutate(furnace),
        });
  const daqState = (f: Furnace) =>
    f.daq_credential === null
      ? t('furnaces.daqNone')
      : t('furnaces.daqIssued', {
          username: f.daq_credential.username,
          at: formatDateTime(f.daq_credential.issued_at),
        });
  const askDelete = (furnace: Furnace) =>
    confirmDestructive({
      title: t('furnaces.delete'),
      text: t('furnaces.deleteText', { name: furnace.name }),
      confirmLabel: t('furnaces.delete'),
      cancelLabel: t('furnaces.cancel'),
      onConfirm: () => remove.mutate(furnace),
    });

  const standardName = (id: string) => (isTestStandard(id) ? tc(`standard.${id}`) : id);
  const curveName = (id: string) => (isHeatingCurveId(id) ? tc(`curve.${id}`) : id);
  const pressure = (f: Furnace) =>
    f.pressure_target_pa === null
      ? t('furnaces.none')
      : `${f.pressure_target_pa}${f.pressure_tolerance_pa === null ? '' : ` ± ${f.pressure_tolerance_pa}`} ${t('furnaces.pa')}`;
  const actions = (furnace: Furnace) =>
    superuser ? (
      <FurnaceActions
        furnace={furnace}
        onEdit={() => setDialog({ kind: 'edit', furnace })}
        onIssue={() => askIssue(furnace)}
        onDelete={() => askDelete(furnace)}
      />
    ) : null;

  return (
    <>
      <PageHeader
        title={t('furnaces.title')}
        subtitle={t('furnaces.hint')}
        actions={
          superuser ? (
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setDialog({ kind: 'create' })}>
              {t('furnaces.add')}
            </Button>
          ) : undefined
        }
      />
      {isError ? <Alert color="red">{t('furnaces.loadError')}</Alert> : null}
      {furnaces?.length === 0 ? <Text c="dimmed">{t('furnaces.empty')}</Text> : null}

      <Paper withBorder radius="lg" style={{ overflow: 'hidden' }} visibleFrom="sm">
        <Table.ScrollContainer minWidth={720} type="native">
          <Table verticalSpacing="sm" horizontalSpacing="md" striped highlightOnHover data-testid="furnaces-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('furnaces.name')}</Table.Th>
                <Table.Th>{t('furnaces.code')}</Table.Th>
                <Table.Th>{t('furnaces.scanPeriod')}</Table.Th>
                <Table.Th>{t('furnaces.standard')}</Table.Th>
                <Table.Th>{t('furnaces.heatingCurve')}</Table.Th>
                <Table.Th>{t('furnaces.pressureTarget')}</Table.Th>
                <Table.Th>{t('furnaces.daqColumn')}</Table.Th>
                {superuser ? <Table.Th w={90}>{t('furnaces.actions')}</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {isPending
                ? Array.from({ length: 3 }, (_, i) => (
                    <Table.Tr key={i}>
                      {Array.from({ length: superuser ? 8 : 7 }, (_, j) => (
                        <Table.Td key={j}>
                          <Skeleton height={18} />
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))
                : furnaces?.map((f) => (
                    <Table.Tr key={f.id} data-testid="furnace-row">
                      <Table.Td fw={500}>{f.name}</Table.Td>
                      <Table.Td>
                        <Code style={{ whiteSpace: 'nowrap' }}>{f.code}</Code>
                      </Table.Td>
                      <Table.Td>
                        {f.scan_period_s} {t('furnaces.seconds')}
                      </Table.Td>
                      <Table.Td>{standardName(f.standard)}</Table.Td>
                      <Table.Td>{curveName(f.heating_curve)}</Table.Td>
                      <Table.Td>{pressure(f)}</Table.Td>
                      <Table.Td data-testid="furnace-daq">{daqState(f)}</Table.Td>
                      {superuser ? <Table.Td>{actions(f)}</Table.Td> : null}
                    </Table.Tr>
                  ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>

      {/* Phones: one card per furnace. */}
      <Stack gap="sm" hiddenFrom="sm" data-testid="furnaces-cards">
        {isPending
          ? Array.from({ length: 3 }, (_, i) => <Skeleton key={i} height={86} radius="lg" />)
          : furnaces?.map((f) => (
              <Card key={f.id} withBorder radius="lg" padding="md">
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <Stack gap={4} style={{ minWidth: 0 }}>
                    <Group gap={6}>
                      <Text fw={600}>{f.name}</Text>
                      <Code>{f.code}</Code>
                    </Group>
                    <Text size="sm" c="dimmed">
                      {standardName(f.standard)} · {curveName(f.heating_curve)}
                    </Text>
                    <Text size="sm" c="dimmed">
                      {t('furnaces.scanPeriod')}: {f.scan_period_s} {t('furnaces.seconds')} ·{' '}
                      {t('furnaces.pressureTarget')}: {pressure(f)}
                    </Text>
                    <Text size="sm" c="dimmed">
                      {t('furnaces.daqColumn')}: {daqState(f)}
                    </Text>
                  </Stack>
                  {actions(f)}
                </Group>
              </Card>
            ))}
      </Stack>

      {furnaces && furnaces.length > 0 ? <UnassignedReadings furnaces={furnaces} /> : null}

      <Modal
        opened={dialog !== null}
        onClose={() => setDialog(null)}
        title={dialog?.kind === 'edit' ? t('furnaces.edit') : t('furnaces.add')}
        centered
        size="lg"
        closeButtonProps={{ 'aria-label': t('common.close', { ns: 'translation' }) }}
      >
        {dialog?.kind === 'create' ? (
          <FurnaceForm onCancel={() => setDialog(null)} onSubmit={(values) => ok(create.mutateAsync(values))} />
        ) : null}
        {dialog?.kind === 'edit' ? (
          <FurnaceForm
            key={dialog.furnace.id}
            furnace={dialog.furnace}
            onCancel={() => setDialog(null)}
            onSubmit={(values) => ok(update.mutateAsync({ furnace: dialog.furnace, values }))}
          />
        ) : null}
      </Modal>

      <Modal
        opened={issued !== null}
        onClose={() => setIssued(null)}
        title={`${t('furnaces.daqCredential')}: ${issued?.furnace.name ?? ''}`}
        centered
        size="lg"
        closeOnClickOutside={false}
        closeButtonProps={{ 'aria-label': t('common.close', { ns: 'translation' }) }}
      >
        {issued ? (
          <Stack gap="sm" data-testid="daq-credential">
            <Alert color="yellow">{t('furnaces.daqShownOnce')}</Alert>
            <CredentialLine label={t('furnaces.daqUsername')} value={issued.credential.username} />
            <CredentialLine label={t('furnaces.daqPassword')} value={issued.credential.password} />
            <CredentialLine label={t('furnaces.daqTopic')} value={issued.credential.topic} />
            <Group justify="flex-end">
              <Button onClick={() => setIssued(null)}>{t('furnaces.daqDone')}</Button>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </>
  );
}

/** One value of an issued credential, with a button that copies it. */
function CredentialLine({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation('lab');
  return (
    <Stack gap={2}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Code block style={{ flex: 1, wordBreak: 'break-all' }} aria-label={label}>
          {value}
        </Code>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Button variant="light" size="xs" onClick={copy} aria-label={`${t('furnaces.daqCopy')}: ${label}`}>
              {copied ? t('furnaces.daqCopied') : t('furnaces.daqCopy')}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

/** Edit, the DAQ credential (issue, or rotate: docs/behaviour.md §16) and delete. */
function FurnaceActions({
  furnace,
  onEdit,
  onIssue,
  onDelete,
}: {
  furnace: Furnace;
  onEdit: () => void;
  onIssue: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation('lab');
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={t('furnaces.rowActions', { name: furnace.name })}>
          <IconDots size={18} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconPencil size={16} aria-hidden />} onClick={onEdit}>
          {t('furnaces.edit')}
        </Menu.Item>
        <Menu.Item leftSection={<IconKey size={16} aria-hidden />} onClick={onIssue}>
          {furnace.daq_credential === null ? t('furnaces.daqIssue') : t('furnaces.daqRotate')}
        </Menu.Item>
        <Menu.Item color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={onDelete}>
          {t('furnaces.delete')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
