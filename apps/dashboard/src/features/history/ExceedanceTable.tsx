import { Badge, Table, Text } from '@mantine/core';
import { formatElapsed } from '@furnace/contracts';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/dates';
import type { ExceedanceRow } from './exceedance';

/** The time of day of a moment of the test: start_at + elapsed seconds, pl-PL in Europe/Warsaw. */
export function wallClock(startAt: string, elapsedSeconds: number): string {
  const start = Date.parse(startAt);
  if (Number.isNaN(start)) return '';
  return formatDateTime(new Date(start + Math.floor(elapsedSeconds) * 1000).toISOString());
}

/**
 * When each category first went above its critical max and mean: elapsed time and time of day.
 * Four columns from `sm` up; on a phone two, the criterion under the category and the time of day
 * under the elapsed time.
 */
export function ExceedanceTable({ rows, startAt }: { rows: readonly ExceedanceRow[]; startAt: string }) {
  const { t } = useTranslation('history');
  if (rows.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        {t('exceedance.none')}
      </Text>
    );
  }
  return (
    <Table verticalSpacing="xs" data-testid="exceedance-table">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('exceedance.category')}</Table.Th>
          <Table.Th visibleFrom="sm">{t('exceedance.criterion')}</Table.Th>
          <Table.Th>{t('exceedance.elapsed')}</Table.Th>
          <Table.Th visibleFrom="sm">{t('exceedance.wallClock')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => {
          const e = row.exceedance;
          const criterion = t(row.kind === 'max' ? 'exceedance.max' : 'exceedance.mean', { value: row.critical });
          const clock = e ? wallClock(startAt, e.time) : '';
          return (
            <Table.Tr
              key={row.key}
              data-testid="exceedance-row"
              data-type={row.typeName}
              data-kind={row.kind}
              data-exceeded={e ? 'true' : 'false'}
            >
              <Table.Td>
                <Text fw={600} size="sm">
                  {row.typeName}
                </Text>
                <Text hiddenFrom="sm" size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {criterion}
                </Text>
              </Table.Td>
              <Table.Td visibleFrom="sm" style={{ whiteSpace: 'nowrap' }}>
                {criterion}
              </Table.Td>
              {e ? (
                <>
                  <Table.Td>
                    <Text
                      span
                      c="red.7"
                      fw={700}
                      ff="monospace"
                      style={{ whiteSpace: 'nowrap' }}
                      data-testid="exceedance-elapsed"
                    >
                      {e.exact ? '' : '≈ '}
                      {formatElapsed(e.time)}
                    </Text>
                    {e.exact ? null : (
                      <Text span size="xs" c="dimmed" ml={6}>
                        {t('exceedance.approx', { seconds: Math.max(1, Math.round(e.range.to - e.range.from)) })}
                      </Text>
                    )}
                    <Text hiddenFrom="sm" size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                      {clock}
                    </Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm" style={{ whiteSpace: 'nowrap' }} data-testid="exceedance-clock">
                    {clock}
                  </Table.Td>
                </>
              ) : (
                <Table.Td colSpan={2}>
                  <Badge color="teal" variant="light">
                    {t('exceedance.notExceeded')}
                  </Badge>
                </Table.Td>
              )}
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
