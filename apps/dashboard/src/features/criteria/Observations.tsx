import type { ObservationDto } from '@furnace/api-client';
import type { ObservationKind } from '@furnace/contracts';
import { Button, Checkbox, Group, Stack, TextInput } from '@mantine/core';
import { IconFlame, IconNote, IconPlayerStop } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WARNING_TEXT } from '../../app/theme';
import { notifyError, notifySuccess } from '../../lib/notify';
import { liveKeys } from '../stream/live-keys';
import type { ReadAuth } from '../stream/read-auth';
import { createObservation, deleteObservation, updateObservation } from '../stream/criteria-api';
import { ObservationList } from './ObservationList';

/** The one-click observations: integrity first (the first of them ends E), then the test stopped. */
const ONE_CLICK_KINDS = [
  'cotton_pad',
  'gap_6mm',
  'gap_25mm',
  'sustained_flaming',
  'test_stopped',
] as const satisfies readonly ObservationKind[];

/**
 * Staff during the test: one click records an observation at the newest frame's time (the server
 * takes it); a note needs its text. Each observation can be shown to the invited clients.
 */
export function ObservationControls({
  auth,
  researchId,
  observations,
}: {
  auth: ReadAuth;
  researchId: string;
  observations: readonly ObservationDto[];
}) {
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
            c={kind === 'test_stopped' ? undefined : WARNING_TEXT}
            leftSection={
              kind === 'test_stopped' ? <IconPlayerStop size={14} aria-hidden /> : <IconFlame size={14} aria-hidden />
            }
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
          <Button
            type="submit"
            size="xs"
            variant="default"
            leftSection={<IconNote size={14} aria-hidden />}
            disabled={note.trim() === '' || record.isPending}
          >
            {t('observation.addNote')}
          </Button>
        </Group>
      </form>
      <Checkbox
        size="xs"
        label={t('observation.visibleByDefault')}
        checked={visible}
        onChange={(event) => setVisible(event.currentTarget.checked)}
        data-testid="observe-visible"
      />
      <ObservationList
        observations={observations}
        onToggleVisible={(o) => toggle.mutate(o)}
        onDelete={(o) => remove.mutate(o)}
      />
    </Stack>
  );
}
