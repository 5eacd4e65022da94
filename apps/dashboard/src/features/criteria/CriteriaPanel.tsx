import {
  type CriteriaSnapshot,
  type DeviationView,
  formatDeviation,
  formatTestTime,
  formatValue,
  type PressureView,
} from '@furnace/contracts';
import { Badge, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { WARNING_TEXT } from '../../app/theme';
import {
  type Category,
  conformityColor,
  criterionState,
  type CriterionKey,
  criterionRows,
  formatEta,
  formatRise,
  NO_DEVIATION,
  overLimit,
  pressureTargetText,
} from './criteria-format';
import { TolerancePeriods } from './TolerancePeriods';

type Limits = CriteriaSnapshot['limits'];

/** A client's view of a research whose classification staff do not show clients (the server leaves it out). */
function withheld(snapshot: CriteriaSnapshot | null): boolean {
  return snapshot !== null && 'classification_withheld' in snapshot && snapshot.classification_withheld === true;
}

function Row({ label, children, testId }: { label: string; children: React.ReactNode; testId: string }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs" data-testid={testId} align="flex-start">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={700} ff="monospace" ta="right" component="div">
        {children}
      </Text>
    </Group>
  );
}

/** T0 and where it came from. */
function T0Value({ snapshot }: { snapshot: CriteriaSnapshot | null }) {
  const { t } = useTranslation('criteria');
  const source = snapshot?.t0_source;
  return (
    <Row label={t('t0.label')} testId="criteria-t0">
      <span data-testid="criteria-t0-value">
        {snapshot?.t0 == null ? t('t0.notYet') : `${formatValue(snapshot.t0)} °C`}
      </span>
      {source ? (
        <Text size="xs" c="dimmed" fw={400} ff="text" data-testid="criteria-t0-source">
          {t(source === 'override' ? 't0.override' : source === 'auto' ? 't0.auto' : 't0.firstFrame')}
        </Text>
      ) : null}
    </Row>
  );
}

/**
 * A verdict's badge: the value now, green while it never left its tolerance, red once it did (the periods
 * below say when), gray before one was judged; `data-ok` is "within now", `data-conforming` the verdict.
 */
function VerdictBadge({
  verdict,
  testId,
  children,
}: {
  verdict: Pick<DeviationView, 'ok' | 'conforming' | 'periods'>;
  testId: string;
  children: React.ReactNode;
}) {
  const { t } = useTranslation('criteria');
  const color = conformityColor(verdict);
  return (
    <Badge
      size="sm"
      color={color}
      variant={color === 'gray' ? 'light' : 'filled'}
      ff="monospace"
      data-testid={testId}
      data-ok={verdict.ok === null ? 'unknown' : String(verdict.ok)}
      data-conforming={verdict.conforming === null ? 'unknown' : String(verdict.conforming)}
      title={
        verdict.conforming === false
          ? t('panel.nonConforming')
          : verdict.ok === null
            ? undefined
            : t(verdict.ok ? 'panel.deviationOk' : 'panel.deviationBad')
      }
      styles={{ label: { textTransform: 'none' } }}
    >
      {children}
    </Badge>
  );
}

/** d_e with its tolerance now. */
function DeviationValue({ snapshot }: { snapshot: CriteriaSnapshot | null }) {
  const { t } = useTranslation('criteria');
  const deviation = snapshot?.deviation ?? NO_DEVIATION;
  return (
    <Stack gap={2} align="flex-end">
      <VerdictBadge verdict={deviation} testId="criteria-de-value">
        {formatDeviation(deviation.d_e)}
      </VerdictBadge>
      <Text size="xs" c="dimmed" fw={400} ff="text" data-testid="criteria-de-tolerance">
        {deviation.tolerance === null
          ? t('panel.noTolerance')
          : t('panel.tolerance', { value: deviation.tolerance.toFixed(2) })}
      </Text>
    </Stack>
  );
}

/** The newest furnace pressure against its target ± tolerance. */
function PressureValue({ pressure }: { pressure: PressureView }) {
  const { t } = useTranslation('criteria');
  return (
    <Stack gap={2} align="flex-end">
      <VerdictBadge verdict={pressure} testId="criteria-pressure-value">
        {pressure.value === null ? '---' : `${formatValue(pressure.value)} Pa`}
      </VerdictBadge>
      <Text size="xs" c="dimmed" fw={400} ff="text" data-testid="criteria-pressure-target">
        {pressureTargetText(pressure, t)}
      </Text>
    </Stack>
  );
}

/** One category's current max or mean: the value and its rise, against the limit ("T0 + 180 K = 200.3 °C"). */
function RiseLine({
  label,
  value,
  rise,
  limit,
  basis,
  testId,
}: {
  label: string;
  value: number | null;
  rise: number | null;
  limit: Limits['max'];
  basis: CriteriaSnapshot['basis'];
  testId: string;
}) {
  const exceeded = overLimit(value, limit);
  return (
    <Stack gap={0}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="xs" c="dimmed">
          {label}
        </Text>
        <Text
          size="sm"
          ff="monospace"
          fw={600}
          c={exceeded ? 'red.7' : undefined}
          data-testid={testId}
          data-exceeded={exceeded}
        >
          {basis === 'rise'
            ? `${formatRise(rise)} · ${formatValue(value)} °C`
            : `${formatValue(value)} / ${limit ? formatValue(limit.c) : '---'} °C`}
        </Text>
      </Group>
      {basis === 'rise' && limit ? (
        <Text size="xs" c="dimmed" ta="right" ff="monospace" data-testid={`${testId}-limit`}>
          ≤ {limit.text}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The rise lines of one category (max, mean, frame: whichever the profile counts it for). */
export function CategoryRises({ category, snapshot }: { category: Category; snapshot: CriteriaSnapshot }) {
  const { t } = useTranslation('criteria');
  const { limits, basis } = snapshot;
  return (
    <Stack gap={2} mt={4} px={4} data-testid="category-criteria">
      {category.role.max ? (
        <RiseLine
          label={t('panel.maxRise')}
          value={category.max}
          rise={category.max_rise}
          limit={limits.max}
          basis={basis}
          testId="category-max"
        />
      ) : null}
      {category.role.frame ? (
        <RiseLine
          label={t('panel.frameRise')}
          value={category.max}
          rise={category.max_rise}
          limit={limits.frame}
          basis={basis}
          testId="category-frame"
        />
      ) : null}
      {category.role.mean ? (
        <RiseLine
          label={t('panel.meanRise')}
          value={category.mean}
          rise={category.mean_rise}
          limit={limits.mean}
          basis={basis}
          testId="category-mean"
        />
      ) : null}
      {category.valid < category.thermocouples ? (
        <Text size="xs" c={WARNING_TEXT} ta="right">
          {t('panel.valid', { valid: category.valid, total: category.thermocouples })}
        </Text>
      ) : null}
    </Stack>
  );
}

/**
 * Each criterion: held so far (completed minutes), the time it failed, or "not measured" (never shown as
 * held); W without a radiometer held as long as I, with a note. W only where radiation is measured.
 */
function CriteriaHeld({ snapshot, radiation = true }: { snapshot: CriteriaSnapshot | null; radiation?: boolean }) {
  const { t } = useTranslation('criteria');
  return (
    <Stack gap={2} data-testid="criteria-held">
      <Text size="xs" c="dimmed">
        {t('panel.held')}
      </Text>
      {criterionRows(snapshot, radiation).map(({ key, label, result }) => {
        const state = result ? criterionState(result) : null;
        const failed = state === 'failed';
        return (
          <Stack
            key={key}
            gap={0}
            data-testid={`criterion-${key}`}
            data-failed={failed}
            data-state={state ?? 'unknown'}
          >
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text size="sm">{label ?? t(`criterion.${key as CriterionKey}`)}</Text>
              <Text
                size="sm"
                ff="monospace"
                fw={700}
                c={failed ? 'red.7' : state === 'notMeasured' ? 'dimmed' : undefined}
              >
                {!result
                  ? '---'
                  : failed
                    ? t('panel.failedAt', { time: formatTestTime(result.time) })
                    : state === 'notMeasured'
                      ? t('panel.notMeasured')
                      : result.held_minutes === null
                        ? '---'
                        : t('panel.heldFor', { minutes: result.held_minutes })}
              </Text>
            </Group>
            {state === 'deemed' ? (
              <Text size="xs" c="dimmed" ta="right" data-testid={`criterion-${key}-deemed`}>
                {t('panel.deemed')}
              </Text>
            ) : null}
          </Stack>
        );
      })}
    </Stack>
  );
}

/** The forecast of insulation failures under 15 minutes away, with the rate. */
function Forecast({ snapshot }: { snapshot: CriteriaSnapshot | null }) {
  const { t } = useTranslation('criteria');
  const rows = snapshot?.forecast ?? [];
  if (rows.length === 0) return null;
  return (
    <Stack gap={2} data-testid="criteria-forecast">
      <Text size="xs" c={WARNING_TEXT} fw={700}>
        {t('panel.forecast')}
      </Text>
      {rows.map((row) => (
        <Text key={row.criterion} size="sm" c={WARNING_TEXT} data-testid="forecast-row">
          {t('panel.forecastRow', {
            criterion: t(`criterion.${row.criterion}`),
            eta: formatEta(row.eta_s),
            rate: row.rate_k_per_min.toFixed(1),
          })}
        </Text>
      ))}
    </Stack>
  );
}

/** Suspect and excluded thermocouples, by name. */
function ThermoHealth({ snapshot, names }: { snapshot: CriteriaSnapshot | null; names: ReadonlyMap<number, string> }) {
  const { t } = useTranslation('criteria');
  const name = (id: number) => names.get(id) ?? `#${id}`;
  const suspects = snapshot?.suspects ?? [];
  const excluded = snapshot?.excluded ?? [];
  if (suspects.length === 0 && excluded.length === 0) return null;
  return (
    <Stack gap={2} data-testid="criteria-health">
      {excluded.length > 0 ? (
        <Text size="xs" c="dimmed" data-testid="criteria-excluded">
          {t('panel.excluded', { list: excluded.map(name).join(', ') })}
        </Text>
      ) : null}
      {suspects.length > 0 ? (
        <>
          <Text size="xs" c={WARNING_TEXT} fw={700}>
            {t('panel.suspects')}
          </Text>
          <Group gap={4}>
            {suspects.map((s) => (
              <Badge
                key={`${s.thermo_id}-${s.reason}`}
                size="xs"
                color={s.reason === 'fault' ? 'red' : 'orange'}
                variant="light"
                data-testid="suspect"
              >
                {name(s.thermo_id)}: {t(`suspect.${s.reason}`)}
              </Badge>
            ))}
          </Group>
        </>
      ) : null}
    </Stack>
  );
}

/** The criteria block of the live side panel: T0, d_e, the furnace pressure, criteria held, classification, forecast, health. */
export function CriteriaPanel({
  snapshot,
  names,
  radiation = true,
}: {
  snapshot: CriteriaSnapshot | null;
  names: ReadonlyMap<number, string>;
  /** The research measures radiation: W is a criterion. */
  radiation?: boolean;
}) {
  const { t } = useTranslation('criteria');
  return (
    <Stack gap="xs" component="section" aria-label={t('panel.title')} data-testid="criteria-panel">
      <Text fw={700} size="sm">
        {t('panel.title')}
      </Text>
      <T0Value snapshot={snapshot} />
      <Row label={t('panel.deviation')} testId="criteria-de">
        <DeviationValue snapshot={snapshot} />
      </Row>
      <TolerancePeriods periods={snapshot?.deviation.periods ?? []} quantity="deviation" testId="criteria-de" />
      {snapshot?.pressure ? (
        <>
          <Row label={t('panel.pressure')} testId="criteria-pressure">
            <PressureValue pressure={snapshot.pressure} />
          </Row>
          <TolerancePeriods periods={snapshot.pressure.periods} quantity="pressure" testId="criteria-pressure" />
        </>
      ) : null}
      <CriteriaHeld snapshot={snapshot} radiation={radiation} />
      <Row label={t('panel.classification')} testId="criteria-class">
        <span data-testid="criteria-class-value">
          {withheld(snapshot) ? t('panel.classificationWithheld') : snapshot?.classification || '---'}
        </span>
      </Row>
      <Forecast snapshot={snapshot} />
      <ThermoHealth snapshot={snapshot} names={names} />
    </Stack>
  );
}
