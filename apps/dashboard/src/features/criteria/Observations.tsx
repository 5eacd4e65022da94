import type { ObservationDto } from '@furnace/api-client';
import type { ObservationKind } from '@furnace/contracts';
import { ActionIcon, Badge, Button, Checkbox, Group, Stack, Switch, Text, TextInput, Tooltip } from '@mantine/core';
import { IconFlame, IconNote, IconPlayerStop, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../lib/notify';
import { liveKeys } from '../live/live-keys';
import type { ReadAuth } from '../live/read-auth';
import { createObservation, deleteObservation, updateObservation } from './criteria-api';
import { formatTime } from './criteria-format';

/** The one-click observations: integrity first (the first of them ends E), then the test stopped. */
export const ONE_CLICK_KINDS = ['cotton_pad', 'gap_6mm', 'gap_25mm', 'sustained_flaming', 'test_stopped'] as const satisfies readonly ObservationKind[];

/** The observations in time order, each "hh:mm:ss — kind: note"; staff also toggle visibility and delete. */
export function ObservationList({
  observations,
  onToggleVisible,
  onDelete,
  showVisibility = false,
}: {
  observations: readonly ObservationDto[];
  /** Staff reading: say which ones the clients see. */
  showVisibility?: boolean;
  onToggleVisible?: (observation: ObservationDto) => void;
  onDelete?: (observation: ObservationDto) => void;
}) {
  const { t } = useTranslation('criteria');
  if (observations.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="observations-empty">
        {t('observation.none')}
      </Text>
    );
  }
  return (
    <Stack gap={4} data-testid="observations">
      {observations.map((o) => (
        <Group key={o.id} justify="space-between" wrap="nowrap" gap="xs" data-testid="observation" data-kind={o.kind} data-visible={o.visible_to_clients}>
          <Text size="sm" miw={0}>
            <Text span ff="monospace" fw={600}>
              {formatTime(o.time)}
            </Text>{' '}
            — {t(`observation.${o.kind}`)}
            {o.note ? `: ${o.note}` : ''}
          </Text>
          {onToggleVisible || onDelete ? (
            <Group gap={6} wrap="nowrap">
              {onToggleVisible ? (
                <Tooltip label={t(o.visible_to_clients ? 'observation.makeHidden' : 'observation.makeVisible')}>
                  <Switch
                    size="xs"
                    checked={o.visible_to_clients}
                    onChange={() => onToggleVisible(o)}
                    aria-label={t(o.visible_to_clients ? 'observation.makeHidden' : 'observation.makeVisible')}
                  />
                </Tooltip>
              ) : null}
              {onDelete ? (
                <ActionIcon size="sm" variant="subtle" color="red" aria-label={t('observation.remove')} onClick={() => onDelete(o)}>
                  <IconTrash size={14} aria-hidden />
                </ActionIcon>
              ) : null}
            </Group>
          ) : showVisibility ? (
            <Badge size="xs" variant="light" color={o.visible_to_clients ? 'teal' : 'gray'}>
              {t(o.visible_to_clients ? 'observation.visible' : 'observation.hidden')}
            </Badge>
          ) : null}
        </Group>
      ))}
    </Stack>
  );
}

/**
 * Staff during the test: one click records an observation at the newest frame's time (the server
 * takes it); a note needs its text. Each observation can be shown to the invited clients.
 */
export function ObservationControls({ auth, researchId, observations }: { auth: ReadAuth; researchId: string; observations: readonly ObservationDto[] }) {
  const { t } = useTranslation('criteria');
  const queryClient = useQueryClient();
  const [visible, setVisible] = useState(false);
  const [note, setNote] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: liveKeys.observations(auth, researchId) });

  const record = useMutation({
    mutationFn: (input: { kind: ObservationKind; note?: string }) =>
      createObservation(researchId, { kind: input.kind, note: input.note ?? null, visible_to_clients: visible }),
    onSuccess: (saved) => {
      if (saved.kind === 'note') setNote('');
      notifySuccess(t('observation.recorded', { kind: t(`observation.${saved.kind}`) }));
    },
    onError: (error) => notifyError(error, t('observation.error')),
    onSettled: refresh,
  });
  const toggle = useMutation({
    mutationFn: (o: ObservationDto) => updateObservation(o.id, { visible_to_clients: !o.visible_to_clients }),
    onError: (error) => notifyError(error, t('observation.error')),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (o: ObservationDto) => deleteObservation(o.id),
    onError: (error) => notifyError(error, t('observation.error')),
    onSettled: refresh,
  });

  return (
    <Stack gap="sm" data-testid="observation-controls">
      <Group gap="xs">
        {ONE_CLICK_KINDS.map((kind) => (
          <Button
            key={kind}
            size="xs"
            variant={kind === 'test_stopped' ? 'outline' : 'light'}
            color={kind === 'test_stopped' ? 'gray' : 'orange'}
            leftSection={kind === 'test_stopped' ? <IconPlayerStop size={14} aria-hidden /> : <IconFlame size={14} aria-hidden />}
            onClick={() => record.mutate({ kind })}
            disabled={record.isPending}
            data-testid={`observe-${kind}`}
          >
            {t(`observation.${kind}`)}
          </Button>
        ))}
      </Group>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (note.trim() !== '') record.mutate({ kind: 'note', note: note.trim() });
        }}
      >
        <Group gap="xs" wrap="nowrap" align="flex-end">
          <TextInput
            flex={1}
            size="xs"
            aria-label={t('observation.notePlaceholder')}
            placeholder={t('observation.notePlaceholder')}
            value={note}
            onChange={(event) => setNote(event.currentTarget.value)}
            maxLength={2000}
          />
          <Button type="submit" size="xs" variant="default" leftSection={<IconNote size={14} aria-hidden />} disabled={note.trim() === '' || record.isPending}>
            {t('observation.addNote')}
          </Button>
        </Group>
      </form>
      <Checkbox size="xs" label={t('observation.visibleByDefault')} checked={visible} onChange={(event) => setVisible(event.currentTarget.checked)} data-testid="observe-visible" />
      <ObservationList observations={observations} onToggleVisible={(o) => toggle.mutate(o)} onDelete={(o) => remove.mutate(o)} />
    </Stack>
  );
}
