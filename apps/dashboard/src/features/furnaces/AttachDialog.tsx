import { Alert, Button, Group, Modal, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/errors';
import { attachUnassigned, type Furnace, type UnassignedRange } from '../../api/furnaces';
import { furnaceKeys, researchKeys } from '../../api/keys';
import { researchListQueryOptions } from '../../api/research';
import { formatDateTime } from '../../lib/dates';
import { errorMessage, notifyError, notifySuccess } from '../../lib/notify';
import { historyKeys } from '../stream/history-api';
import { attachCandidates, attachTimes, rangeFields, type RangeError, type RangeFields } from './unassigned';

/** What the dialog is about: one range of one furnace's unassigned readings. */
export interface AttachTarget {
  furnace: Furnace;
  range: UnassignedRange;
}

/**
 * *Attach to test…* (docs/behaviour.md §15.1): a test on the furnace, the range (narrowed if wanted), confirm.
 * The API's refusal (409, 422) stays in the dialog; success closes it with the counts the API gives.
 */
export function AttachDialog({ target, onClose }: { target: AttachTarget | null; onClose: () => void }) {
  const { t } = useTranslation('lab');
  return (
    <Modal
      opened={target !== null}
      onClose={onClose}
      title={target ? t('unassigned.dialogTitle', { name: target.furnace.name }) : ''}
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close', { ns: 'translation' }) }}
    >
      {target ? (
        <AttachForm key={`${target.furnace.id}:${target.range.from}`} target={target} onClose={onClose} />
      ) : null}
    </Modal>
  );
}

function AttachForm({ target, onClose }: { target: AttachTarget; onClose: () => void }) {
  const { t } = useTranslation('lab');
  const queryClient = useQueryClient();
  const { furnace, range } = target;
  const research = useQuery(researchListQueryOptions());
  const { tests, suggested } = attachCandidates(research.data ?? [], furnace.id, range);
  const [picked, setPicked] = useState<string | null>(null);
  const testId = picked ?? suggested;
  const [fields, setFields] = useState<RangeFields>(() => rangeFields(range));
  const [errors, setErrors] = useState<{ test?: string; from?: string; to?: string }>({});

  const attach = useMutation({
    mutationFn: (body: { research_id: string; from: string; to: string }) => attachUnassigned(furnace.id, body),
    onSuccess: (result, body) => {
      const name = tests.find((test) => test.id === body.research_id)?.name ?? '';
      notifySuccess(
        [
          t('unassigned.attached', { name, attached: result.attached }),
          result.skipped > 0 ? t('unassigned.skipped', { skipped: result.skipped }) : '',
        ]
          .filter(Boolean)
          .join(' '),
      );
      onClose();
    },
    // A refusal of the request itself (409: not this furnace's test, approved, nothing to attach; 422: outside the
    // window) is shown in the dialog, to change the test or the range; anything else is a toast.
    onError: (error) => {
      if (!(error instanceof ApiError && (error.status === 409 || error.status === 422)))
        notifyError(error, t('unassigned.failed'));
    },
    onSettled: (_result, _error, body) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: furnaceKeys.unassigned(furnace.id) }),
        queryClient.invalidateQueries({ queryKey: researchKeys.detail(body.research_id) }),
        queryClient.invalidateQueries({ queryKey: historyKeys.all }),
      ]),
  });
  const refusal =
    attach.error instanceof ApiError && (attach.error.status === 409 || attach.error.status === 422)
      ? errorMessage(attach.error)
      : null;

  const submit = () => {
    const times = attachTimes(range, fields);
    const timeError = (which: RangeError) => t(`unassigned.${which}`);
    const next = {
      test: testId === null ? t('unassigned.testRequired') : undefined,
      from: 'error' in times && times.error === 'fromInvalid' ? timeError(times.error) : undefined,
      to: 'error' in times && times.error !== 'fromInvalid' ? timeError(times.error) : undefined,
    };
    setErrors(next);
    if (testId === null || 'error' in times) return;
    attach.mutate({ research_id: testId, from: times.from, to: times.to });
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="md" data-testid="attach-dialog">
        <Text size="sm">
          {t('unassigned.dialogRange', {
            from: formatDateTime(range.from),
            to: formatDateTime(range.to),
            frames: range.frames,
          })}
        </Text>
        {research.isSuccess && tests.length === 0 ? (
          <Alert color="yellow" data-testid="attach-no-tests">
            {t('unassigned.noTests')}
          </Alert>
        ) : null}
        <Select
          label={t('unassigned.test')}
          description={t('unassigned.testHint')}
          placeholder={t('unassigned.testPlaceholder')}
          data={tests.map((test) => ({
            value: test.id,
            label: t('unassigned.testOption', {
              name: test.name,
              from: formatDateTime(test.start_at),
              to: formatDateTime(test.end_at),
            }),
          }))}
          value={testId}
          onChange={(value) => {
            setPicked(value);
            attach.reset();
          }}
          searchable
          disabled={research.isPending}
          error={errors.test}
          withAsterisk
          comboboxProps={{ withinPortal: true }}
          data-testid="attach-test"
        />
        <Stack gap={4}>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput
              type="datetime-local"
              step={1}
              label={t('unassigned.from')}
              value={fields.from}
              onChange={(event) => setFields({ ...fields, from: event.currentTarget.value })}
              error={errors.from}
            />
            <TextInput
              type="datetime-local"
              step={1}
              label={t('unassigned.to')}
              value={fields.to}
              onChange={(event) => setFields({ ...fields, to: event.currentTarget.value })}
              error={errors.to}
            />
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            {t('unassigned.narrowHint')}
          </Text>
        </Stack>
        {refusal ? (
          <Alert color="red" icon={<IconAlertTriangle size={18} aria-hidden />} data-testid="attach-error">
            {refusal}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('unassigned.cancel')}
          </Button>
          <Button type="submit" loading={attach.isPending}>
            {t('unassigned.confirm')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
