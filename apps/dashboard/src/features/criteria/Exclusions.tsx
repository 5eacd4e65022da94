import type { ThermoExclusionDto } from '@furnace/api-client';
import { ActionIcon, Button, Group, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconBan, IconClockHour4, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/dates';
import { notifyError, notifySuccess } from '../../lib/notify';
import { liveKeys } from '../stream/live-keys';
import type { ReadAuth } from '../stream/read-auth';
import { createExclusion, deleteExclusion } from '../stream/criteria-api';
import { formatTestTime } from '@furnace/contracts';

export interface ExclusionDraft {
  thermo: string | null;
  from: number | '';
  reason: string;
}

type DraftErrors = Partial<
  Record<keyof ExclusionDraft, 'exclusion.thermoRequired' | 'exclusion.fromInvalid' | 'exclusion.reasonRequired'>
>;

/** What is wrong with an exclusion before it is sent (i18n keys), or nothing. */
export function exclusionErrors(draft: ExclusionDraft): DraftErrors {
  const errors: DraftErrors = {};
  if (!draft.thermo || !Number.isInteger(Number(draft.thermo)) || Number(draft.thermo) < 1)
    errors.thermo = 'exclusion.thermoRequired';
  if (draft.from === '' || !Number.isFinite(draft.from) || draft.from < 0) errors.from = 'exclusion.fromInvalid';
  if (draft.reason.trim() === '') errors.reason = 'exclusion.reasonRequired';
  return errors;
}

/**
 * Staff exclude a thermocouple from a time on, with a reason (kept with who and when); the
 * criteria are computed again without it from that time. An exclusion can be undone.
 */
export function ExclusionControls({
  auth,
  researchId,
  exclusions,
  thermocouples,
  now,
}: {
  auth: ReadAuth;
  researchId: string;
  exclusions: readonly ThermoExclusionDto[];
  /** The research's thermocouples (thermo_id, name). */
  thermocouples: readonly { thermo_id: number; name: string }[];
  /** The newest frame's time (s), for "from now". */
  now: () => number | null;
}) {
  const { t } = useTranslation('criteria');
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<ExclusionDraft>({ thermo: null, from: '', reason: '' });
  const [tried, setTried] = useState(false);
  const errors = exclusionErrors(draft);
  const shown = (key: keyof ExclusionDraft) => (tried && errors[key] ? t(errors[key]) : undefined);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: liveKeys.exclusions(auth, researchId) }),
      queryClient.invalidateQueries({ queryKey: liveKeys.research(auth, researchId) }),
    ]);
  const names = new Map(thermocouples.map((th) => [th.thermo_id, th.name]));
  const name = (id: number) => names.get(id) ?? `#${id}`;

  const add = useMutation({
    mutationFn: () =>
      createExclusion(researchId, {
        thermo_id: Number(draft.thermo),
        from_time: draft.from as number,
        reason: draft.reason.trim(),
      }),
    onSuccess: () => {
      setDraft({ thermo: null, from: '', reason: '' });
      setTried(false);
      notifySuccess(t('exclusion.saved'));
    },
    onError: (error) => notifyError(error, t('exclusion.error')),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => deleteExclusion(id),
    onError: (error) => notifyError(error, t('exclusion.error')),
    onSettled: refresh,
  });

  const options = thermocouples.map((th) => ({ value: String(th.thermo_id), label: `${th.name} (#${th.thermo_id})` }));
  return (
    <Stack gap="sm" data-testid="exclusion-controls">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTried(true);
          if (Object.keys(errors).length === 0) add.mutate();
        }}
      >
        <Stack gap="xs">
          <Group gap="xs" align="flex-start" wrap="nowrap">
            <Select
              size="xs"
              flex={1}
              label={t('exclusion.thermo')}
              data={options}
              searchable
              value={draft.thermo}
              onChange={(thermo) => setDraft((d) => ({ ...d, thermo }))}
              error={shown('thermo')}
              data-testid="exclusion-thermo"
            />
            <NumberInput
              size="xs"
              flex={1}
              label={t('exclusion.from')}
              min={0}
              value={draft.from}
              onChange={(from) => setDraft((d) => ({ ...d, from: typeof from === 'number' ? from : '' }))}
              error={shown('from')}
              rightSectionWidth={32}
              rightSection={
                <ActionIcon
                  size="sm"
                  variant="subtle"
                  aria-label={t('exclusion.fromNow')}
                  title={t('exclusion.fromNow')}
                  onClick={() => {
                    const time = now();
                    if (time !== null) setDraft((d) => ({ ...d, from: Math.max(0, Math.floor(time)) }));
                  }}
                >
                  <IconClockHour4 size={14} aria-hidden />
                </ActionIcon>
              }
              data-testid="exclusion-from"
            />
          </Group>
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <TextInput
              size="xs"
              flex={1}
              label={t('exclusion.reason')}
              value={draft.reason}
              onChange={(event) => {
                const reason = event.currentTarget.value;
                setDraft((d) => ({ ...d, reason }));
              }}
              error={shown('reason')}
              maxLength={500}
              data-testid="exclusion-reason"
            />
            <Button
              type="submit"
              size="xs"
              color="red"
              variant="light"
              leftSection={<IconBan size={14} aria-hidden />}
              loading={add.isPending}
            >
              {t('exclusion.save')}
            </Button>
          </Group>
        </Stack>
      </form>
      {exclusions.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('exclusion.none')}
        </Text>
      ) : (
        <Stack gap={4} data-testid="exclusions">
          {exclusions.map((e) => (
            <Group key={e.id} justify="space-between" wrap="nowrap" gap="xs" data-testid="exclusion">
              <Stack gap={0} miw={0}>
                <Text size="sm">
                  {t('exclusion.row', { name: name(e.thermo_id), time: formatTestTime(e.from_time), reason: e.reason })}
                </Text>
                <Text size="xs" c="dimmed">
                  {t('exclusion.by', { who: e.created_by ?? '—', when: formatDateTime(e.created_at) })}
                </Text>
              </Stack>
              <ActionIcon
                size="sm"
                variant="subtle"
                color="red"
                aria-label={t('exclusion.remove')}
                onClick={() => remove.mutate(e.id)}
              >
                <IconTrash size={14} aria-hidden />
              </ActionIcon>
            </Group>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
