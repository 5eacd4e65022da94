import type { TolerancePeriod } from '@furnace/contracts';
import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatPeriod, type ToleranceQuantity } from './criteria-format';

/**
 * The periods d_e or the furnace pressure spent outside its tolerance, one line each; nothing while there
 * is none. `testId` names the list (`{testId}-periods`) and each line (`{testId}-period`). `latest` keeps
 * only the newest ones (the monitor's tiles) and counts the earlier.
 */
export function TolerancePeriods({
  periods,
  quantity,
  testId,
  latest,
  align = 'flex-start',
}: {
  periods: readonly TolerancePeriod[];
  quantity: ToleranceQuantity;
  testId: string;
  latest?: number;
  align?: 'flex-start' | 'flex-end';
}) {
  const { t } = useTranslation('criteria');
  if (periods.length === 0) return null;
  const shown = latest === undefined ? periods : periods.slice(-latest);
  const earlier = periods.length - shown.length;
  return (
    <Stack gap={0} align={align} data-testid={`${testId}-periods`} data-count={periods.length}>
      <Text size="xs" c="red.8" fw={700} ff="text">
        {t('panel.periods')}
      </Text>
      {earlier > 0 ? (
        <Text size="xs" c="dimmed" ff="text" fw={400}>
          {t('panel.periodsEarlier', { number: earlier })}
        </Text>
      ) : null}
      {shown.map((period) => (
        <Text
          key={period.from}
          size="xs"
          c="red.8"
          ff="monospace"
          fw={400}
          data-testid={`${testId}-period`}
          data-open={period.open}
        >
          {formatPeriod(period, quantity, t)}
        </Text>
      ))}
    </Stack>
  );
}
