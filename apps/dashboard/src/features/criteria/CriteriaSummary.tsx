import type { ObservationDto } from '@furnace/api-client';
import { type CriteriaView, formatDeviation, formatTestTime, formatValue } from '@furnace/contracts';
import { Badge, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/dates';
import {
  conformityColor,
  criterionRows,
  criterionState,
  type CriterionKey,
  failureTime,
  pressureTargetText,
} from './criteria-format';
import { ObservationList } from './ObservationList';
import { TolerancePeriods } from './TolerancePeriods';

/** Who set T0 by hand and when (the research's t0_set_by / t0_set_at). */
export interface T0Audit {
  t0_override: number | null;
  t0_set_by: string | null;
  t0_set_at: string | null;
}

function Figure({ label, children, testId }: { label: string; children: React.ReactNode; testId: string }) {
  return (
    <Stack gap={2} data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fw={700} ff="monospace" component="div">
        {children}
      </Text>
    </Stack>
  );
}

/**
 * The history's criteria: T0 (and who set it), the limits, the final d_e and the furnace pressure with
 * their periods outside tolerance, the classification, each criterion in completed minutes (or not
 * measured), the failures (an interval where a gap hides the moment), the single-scan excursions and
 * the observations.
 */
export function CriteriaSummary({
  criteria,
  audit,
  observations,
  names,
  radiation = true,
}: {
  criteria: CriteriaView;
  /** The research measures radiation: W is a criterion. */
  radiation?: boolean;
  audit: T0Audit;
  observations: readonly ObservationDto[];
  names: ReadonlyMap<number, string>;
}) {
  const { t } = useTranslation('criteria');
  const name = (id: number | null) => (id === null ? '' : (names.get(id) ?? `#${id}`));
  const color = conformityColor(criteria.deviation);
  const { pressure } = criteria;
  const pressureColor = pressure ? conformityColor(pressure) : 'gray';
  const limits = [
    criteria.limits.mean ? t('history.limitMean', { text: criteria.limits.mean.text }) : null,
    criteria.limits.max ? t('history.limitMax', { text: criteria.limits.max.text }) : null,
    criteria.limits.frame ? t('history.limitFrame', { text: criteria.limits.frame.text }) : null,
  ].filter((text): text is string => text !== null);

  return (
    <Stack gap="md" data-testid="criteria-summary" data-ended={criteria.ended}>
      <SimpleGrid cols={{ base: 2, sm: 3, md: pressure ? 5 : 4 }} spacing="md">
        <Figure label={t('t0.title')} testId="history-t0">
          <span data-testid="history-t0-value">{criteria.t0 === null ? '---' : `${formatValue(criteria.t0)} °C`}</span>
          <Text size="xs" c="dimmed" ff="text" fw={400}>
            {criteria.t0_source === 'override'
              ? `${t('t0.override')}: ${t('t0.byWhen', { who: audit.t0_set_by ?? '—', when: audit.t0_set_at ? formatDateTime(audit.t0_set_at) : '—' })}`
              : t(criteria.t0_source === 'auto' ? 't0.auto' : 't0.firstFrame')}
          </Text>
        </Figure>
        <Figure label={t('panel.deviation')} testId="history-de">
          <Badge
            size="lg"
            color={color}
            variant={color === 'gray' ? 'light' : 'filled'}
            ff="monospace"
            data-testid="history-de-value"
            data-ok={String(criteria.deviation.ok)}
            data-conforming={String(criteria.deviation.conforming)}
            styles={{ label: { textTransform: 'none' } }}
          >
            {formatDeviation(criteria.deviation.d_e)}
          </Badge>
          <Text size="xs" c="dimmed" ff="text" fw={400}>
            {criteria.deviation.tolerance === null
              ? t('panel.noTolerance')
              : t('panel.tolerance', { value: criteria.deviation.tolerance.toFixed(2) })}
          </Text>
          <TolerancePeriods periods={criteria.deviation.periods} quantity="deviation" testId="history-de" />
        </Figure>
        {pressure ? (
          <Figure label={t('panel.pressure')} testId="history-pressure">
            <Badge
              size="lg"
              color={pressureColor}
              variant={pressureColor === 'gray' ? 'light' : 'filled'}
              ff="monospace"
              data-testid="history-pressure-value"
              data-ok={String(pressure.ok)}
              data-conforming={String(pressure.conforming)}
              styles={{ label: { textTransform: 'none' } }}
            >
              {pressure.value === null ? '---' : `${formatValue(pressure.value)} Pa`}
            </Badge>
            <Text size="xs" c="dimmed" ff="text" fw={400} data-testid="history-pressure-target">
              {pressureTargetText(pressure, t)}
            </Text>
            <TolerancePeriods periods={pressure.periods} quantity="pressure" testId="history-pressure" />
          </Figure>
        ) : null}
        <Figure label={t('panel.classification')} testId="history-class">
          <span data-testid="history-class-value">
            {criteria.classification_withheld ? t('panel.classificationWithheld') : criteria.classification || '---'}
          </span>
          <Text size="xs" c="dimmed" ff="text" fw={400}>
            {t(criteria.ended ? 'history.ended' : 'history.running')}
          </Text>
        </Figure>
        <Figure label={t('history.limits')} testId="history-limits">
          <Stack gap={0}>
            {limits.map((text) => (
              <Text key={text} size="xs" ff="monospace">
                {text}
              </Text>
            ))}
          </Stack>
        </Figure>
      </SimpleGrid>
      {criteria.ignition_at ? (
        <Text size="xs" c="dimmed" data-testid="history-ignition">
          {t('history.startedAt', { time: formatDateTime(criteria.ignition_at) })}
        </Text>
      ) : null}

      <Table verticalSpacing={4} data-testid="criteria-table" captionSide="top">
        <Table.Caption>{t('history.table')}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('history.criterion')}</Table.Th>
            <Table.Th>{t('history.time')}</Table.Th>
            <Table.Th>{t('history.minutes')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {criterionRows(criteria, radiation).map(({ key, label, result: row }) => {
            const result = row as NonNullable<typeof row>;
            const state = criterionState(result);
            return (
              <Table.Tr key={key} data-testid={`criteria-row-${key}`} data-reached={result.reached} data-state={state}>
                <Table.Td>{label ?? t(`criterion.${key as CriterionKey}`)}</Table.Td>
                <Table.Td
                  ff={state === 'failed' || state === 'held' ? 'monospace' : undefined}
                  c={state === 'failed' ? 'red.7' : state === 'held' ? undefined : 'dimmed'}
                >
                  {state === 'failed'
                    ? formatTestTime(result.time)
                    : state === 'notMeasured'
                      ? t('panel.notMeasured')
                      : state === 'deemed'
                        ? t('panel.deemed')
                        : t('panel.notReached')}
                </Table.Td>
                <Table.Td ff="monospace" fw={700}>
                  {result.minutes ?? result.held_minutes ?? '---'}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>

      <Stack gap={4}>
        <Text fw={700} size="sm">
          {t('history.failures')}
        </Text>
        {criteria.failures.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="failures-empty">
            {t('history.noFailures')}
          </Text>
        ) : (
          criteria.failures.map((f) => {
            const when = failureTime(f);
            return (
              <Group
                key={`${f.criterion}-${f.time}-${f.thermo_id ?? ''}`}
                gap="xs"
                data-testid="failure"
                data-criterion={f.criterion}
                data-interval={when.interval}
              >
                <Badge color="red" variant="light" size="sm">
                  {t(`criterion.${f.criterion}`)}
                  {f.insulation_class ? ` (${f.insulation_class})` : ''}
                </Badge>
                <Text size="sm" ff="monospace" fw={700}>
                  {when.interval
                    ? t('history.interval', { from: formatTestTime(f.interval_from), to: formatTestTime(f.time) })
                    : when.text}
                </Text>
                <Text size="sm" c="dimmed">
                  {[f.type_name, name(f.thermo_id)].filter(Boolean).join(' · ')}
                </Text>
              </Group>
            );
          })
        )}
        {criteria.excursions.length > 0 ? (
          <Text size="xs" c="dimmed" data-testid="excursions">
            {t('history.excursions')}:{' '}
            {criteria.excursions
              .map((e) => `${formatTestTime(e.time)}${e.thermo_id === null ? '' : ` (${name(e.thermo_id)})`}`)
              .join(', ')}
          </Text>
        ) : null}
      </Stack>

      <Stack gap={4}>
        <Text fw={700} size="sm">
          {t('observation.title')}
        </Text>
        <ObservationList observations={observations} showVisibility />
      </Stack>
    </Stack>
  );
}
