import type { HistoryDto, ThermoMarkerDto } from '@furnace/api-client';
import { Alert, Grid, Paper, Skeleton, Stack, Title } from '@mantine/core';
import { IconAlertTriangle, IconPencil } from '@tabler/icons-react';
import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/errors';
import { researchQueryOptions } from '../../api/research';
import { ButtonLink } from '../../components/ButtonLink';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { formatDateTime } from '../../lib/dates';
import { errorMessage } from '../../lib/notify';
import { chartCategories } from '../charts/categories';
import type { ChartThermocouple } from '../charts/curve-specs';
import { DownloadMenu } from './DownloadMenu';
import { exceedanceRows, refineExceedance, refinementRanges } from './exceedance';
import { ExceedanceTable } from './ExceedanceTable';
import { historyQueryOptions, researchMarkersQueryOptions, STAFF } from '../stream/history-api';
import { ArchiveButton, ReportButton } from './ReportButton';
import { ThermoToggles } from './ThermoToggles';
import { criteriaSnapshotQuery, exclusionsQuery, observationsQuery } from '../stream/criteria-api';
import { CriteriaSummary } from '../criteria/CriteriaSummary';
import { ReplayPanel } from '../replay/ReplayPanel';
import { ReviewPanel } from '../review/ReviewPanel';
import { StateBadge } from '../review/StateBadge';
import { useReplayPlayer } from '../replay/use-replay';

// ECharts comes in a chunk of its own (shared with the live curves): the header and the exceedances show without waiting for it.
const HistoryChart = lazy(() => import('./HistoryChart'));

const NONE: readonly never[] = [];

/** Buckets of the whole test: ≤ 2 000 chart points per series. */
const OVERVIEW_POINTS = 1000;
/** The endpoint's most points: a bucket read again at this resolution is raw frames in practice. */
const FULL_RESOLUTION_POINTS = 10_000;
/** How often a history with readings only before ignition is asked again (ms). */
const PRE_IGNITION_POLL_MS = 5_000;

/** Readings are stored, all before ignition (negative time): the history, which starts at time 0, has none yet. */
function beforeIgnition(history: HistoryDto | undefined): boolean {
  return history !== undefined && history.frames === 0 && history.last_time !== null && history.last_time < 0;
}

function isMissing(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 422 || error.status === 400);
}

/** The thermocouples that have readings (the history's thermo_ids), named and coloured by their markers (or '#id' without one). */
function historyThermocouples(overview: HistoryDto, markers: readonly ThermoMarkerDto[]): ChartThermocouple[] {
  const byId = new Map<number, ThermoMarkerDto>();
  for (const marker of markers) if (!byId.has(marker.thermo_id)) byId.set(marker.thermo_id, marker);
  return overview.thermo_ids.map((thermoId) => {
    const marker = byId.get(thermoId);
    return { thermoId, name: marker?.name ?? `#${thermoId}`, color: marker?.color_hex };
  });
}

/** Staff: the temperature history of a research — exceedances, zoomable curves, CSV. */
export function HistoryPage({ researchId }: { researchId: string }) {
  const { t } = useTranslation('history');
  const { t: tc } = useTranslation();
  const research = useQuery(researchQueryOptions(researchId));
  const markers = useQuery(researchMarkersQueryOptions(STAFF, researchId));
  // Only what is drawn travels: a thermocouple's own series is read when it is ticked (none at first).
  const [ticked, setTicked] = useState<ReadonlySet<number>>(() => new Set());
  const thermoIds = useMemo(() => [...ticked].sort((a, b) => a - b), [ticked]);
  const overview = useQuery({
    ...historyQueryOptions(STAFF, researchId, { points: OVERVIEW_POINTS, thermoIds }),
    placeholderData: keepPreviousData,
    // Before ignition nothing is drawn yet: asked again until time 0 has readings, then the chart appears.
    refetchInterval: (query) => (beforeIgnition(query.state.data) ? PRE_IGNITION_POLL_MS : false),
  });
  const criteria = useQuery(criteriaSnapshotQuery(STAFF, researchId));
  const observations = useQuery(observationsQuery(STAFF, researchId));
  const exclusions = useQuery(exclusionsQuery(STAFF, researchId));
  const names = useMemo(() => new Map((markers.data ?? []).map((m) => [m.thermo_id, m.name])), [markers.data]);
  const replay = useReplayPlayer(researchId, overview.data?.last_time);

  const categories = useMemo(() => chartCategories(markers.data ?? []), [markers.data]);
  const thermocouples = useMemo(
    () => (overview.data ? historyThermocouples(overview.data, markers.data ?? []) : []),
    [overview.data, markers.data],
  );
  const hidden = useMemo(
    () => new Set(thermocouples.map((th) => th.thermoId).filter((id) => !ticked.has(id))),
    [thermocouples, ticked],
  );
  const setHidden = (next: ReadonlySet<number>) =>
    setTicked(new Set(thermocouples.map((th) => th.thermoId).filter((id) => !next.has(id))));

  // First exceedances: from the buckets of the whole test, then each bucket read again at full resolution.
  const rows = useMemo(
    () => (overview.data ? exceedanceRows(overview.data, categories) : []),
    [overview.data, categories],
  );
  const ranges = useMemo(() => refinementRanges(rows), [rows]);
  const details = useQueries({
    queries: ranges.map((range) => ({
      ...historyQueryOptions(STAFF, researchId, { points: FULL_RESOLUTION_POINTS, from: range.from, to: range.to }),
      staleTime: Infinity,
    })),
  });
  const refined = rows.map((row) => {
    const e = row.exceedance;
    const at = e ? ranges.findIndex((r) => r.from === e.range.from && r.to === e.range.to) : -1;
    return refineExceedance(row, at >= 0 ? details[at]?.data : undefined);
  });

  if (research.isPending || markers.isPending || overview.isPending) {
    return (
      <Stack>
        <Skeleton height={36} width="50%" />
        <Skeleton height={120} radius="lg" />
        <Skeleton height={420} radius="lg" />
      </Stack>
    );
  }
  const error = research.error ?? markers.error ?? overview.error;
  if (!research.data || !overview.data || error) {
    const missing = isMissing(error);
    return (
      <Alert
        color={missing ? 'yellow' : 'red'}
        icon={<IconAlertTriangle aria-hidden />}
        title={missing ? tc('research.notFoundTitle') : tc('common.errorTitle')}
        data-testid="research-missing"
      >
        {missing ? tc('research.notFoundText') : errorMessage(error)}
      </Alert>
    );
  }

  const r = research.data;
  const history = overview.data;
  // The time of day of time 0 from the frames' own timestamps; the schedule only when no frame has one.
  const ignitionAt = criteria.data?.ignition_at ?? history.ignition_at ?? r.start_at;
  const absolute = r.criteria_basis === 'absolute';
  return (
    <>
      <PageHeader
        title={t('title')}
        subtitle={`${r.name} · ${formatDateTime(r.start_at)} – ${formatDateTime(r.end_at)}`}
        actions={
          <>
            <StateBadge research={r} size="lg" />
            <ButtonLink
              to="/research/$researchId/edit"
              params={{ researchId }}
              variant="light"
              color="gray"
              leftSection={<IconPencil size={16} aria-hidden />}
            >
              {tc('common.edit')}
            </ButtonLink>
            <ReportButton researchId={researchId} />
            <ReportButton researchId={researchId} document="classification" />
            <DownloadMenu researchId={researchId} />
            <ArchiveButton researchId={researchId} />
          </>
        }
      />
      <ReviewPanel research={r} />
      {history.frames === 0 ? (
        <Alert color="gray" mt="lg" data-testid="history-empty">
          {/* Readings before ignition (negative time) are stored, but the history starts at time 0. */}
          {beforeIgnition(history) ? t('beforeIgnition', { seconds: -(history.last_time ?? 0) }) : t('empty')}
        </Alert>
      ) : (
        <Stack gap="lg" mt="lg">
          <Section title={t('history.title', { ns: 'criteria' })}>
            {criteria.data ? (
              <CriteriaSummary
                criteria={criteria.data}
                audit={r}
                observations={observations.data ?? []}
                names={names}
                radiation={r.is_radiance}
              />
            ) : criteria.isError ? (
              <Alert color="red" icon={<IconAlertTriangle aria-hidden />}>
                {errorMessage(criteria.error)}
              </Alert>
            ) : (
              <Skeleton height={160} radius="md" />
            )}
          </Section>
          {/* The spec's absolute critical values: what a research on the absolute basis is judged by. */}
          {absolute ? (
            <Section title={t('exceedance.title')}>
              <ExceedanceTable rows={refined} startAt={ignitionAt} />
            </Section>
          ) : null}
          {replay ? <ReplayPanel researchId={researchId} player={replay} /> : null}
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, lg: thermocouples.length > 0 ? 9 : 12 }}>
              <Paper withBorder radius="lg" p={{ base: 'xs', sm: 'md' }}>
                <Suspense fallback={<Skeleton height={560} radius="md" />}>
                  <HistoryChart
                    researchId={researchId}
                    startAt={ignitionAt}
                    flags={{ furnace: r.is_furnance, radiance: r.is_radiance, pressure: r.is_pressure }}
                    profile={r}
                    criteria={criteria.data ?? null}
                    observations={observations.data ?? NONE}
                    exclusions={exclusions.data ?? NONE}
                    names={names}
                    overview={history}
                    categories={categories}
                    thermocouples={thermocouples}
                    hidden={hidden}
                    cursor={replay?.frames}
                  />
                </Suspense>
              </Paper>
            </Grid.Col>
            {thermocouples.length > 0 ? (
              <Grid.Col span={{ base: 12, lg: 3 }}>
                <Paper withBorder radius="lg" p="md">
                  <Title order={2} fz="lg" mb="sm">
                    {t('thermo.title')}
                  </Title>
                  <ThermoToggles thermocouples={thermocouples} hidden={hidden} onChange={setHidden} />
                </Paper>
              </Grid.Col>
            ) : null}
          </Grid>
        </Stack>
      )}
    </>
  );
}
