import type { ResearchDto } from '@furnace/api-client';
import { formatValue } from '@furnace/contracts';
import { Button, Group, NumberInput, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { researchKeys } from '../../api/keys';
import { Section } from '../../components/Section';
import { formatDateTime } from '../../lib/dates';
import { notifyError, notifySuccess } from '../../lib/notify';
import { FrozenControls } from '../../components/frozen';
import { setT0Override } from '../stream/criteria-api';

/** Plausible T0 bounds, °C: an unexposed face before a test is at room temperature. */
const T0_MIN = -50;
const T0_MAX = 100;

/**
 * Staff overwrite T0 by hand (kept with who and when) or go back to the automatic one: the mean of
 * the unexposed-face thermocouples over the 60 s before ignition. `frozen`: why it cannot be changed now (an approved test).
 */
export function T0Section({ research, frozen = null }: { research: ResearchDto; frozen?: string | null }) {
  const { t } = useTranslation('criteria');
  const queryClient = useQueryClient();
  const [value, setValue] = useState<number | ''>(research.t0_override ?? '');
  useEffect(() => setValue(research.t0_override ?? ''), [research.t0_override]);
  const invalid = value !== '' && (value < T0_MIN || value > T0_MAX);

  const save = useMutation({
    mutationFn: (t0: number | null) => setT0Override(research.id, t0),
    onSuccess: (saved) => {
      queryClient.setQueryData(researchKeys.detail(research.id), saved);
      notifySuccess(t('t0.saved'));
    },
    onError: (error) => notifyError(error, t('t0.saveError')),
    onSettled: () => queryClient.invalidateQueries({ queryKey: researchKeys.all }),
  });

  const changed = (value === '' ? null : value) !== research.t0_override;
  return (
    <Section title={t('t0.title')}>
      <Stack gap="xs" data-testid="t0-section">
        <Text size="sm" data-testid="t0-current">
          {research.t0_override === null ? (
            t('t0.auto')
          ) : (
            <>
              <Text span fw={700} ff="monospace">
                {formatValue(research.t0_override)} °C
              </Text>{' '}
              — {t('t0.override')},{' '}
              {t('t0.setBy', {
                who: research.t0_set_by ?? '—',
                when: research.t0_set_at ? formatDateTime(research.t0_set_at) : '—',
              })}
            </>
          )}
        </Text>
        <FrozenControls reason={frozen}>
          <Group align="flex-end" gap="sm">
            <NumberInput
              w={280}
              label={t('t0.overrideLabel')}
              description={t('t0.overrideHint')}
              decimalScale={1}
              value={value}
              onChange={(next) => setValue(typeof next === 'number' ? next : '')}
              error={invalid ? `${T0_MIN} … ${T0_MAX} °C` : undefined}
              data-testid="t0-input"
            />
            <Button
              onClick={() => save.mutate(value === '' ? null : value)}
              disabled={!changed || invalid}
              loading={save.isPending}
              data-testid="t0-save"
            >
              {t('t0.save')}
            </Button>
            {research.t0_override !== null ? (
              <Button variant="default" onClick={() => save.mutate(null)} disabled={save.isPending}>
                {t('t0.clear')}
              </Button>
            ) : null}
          </Group>
        </FrozenControls>
      </Stack>
    </Section>
  );
}
