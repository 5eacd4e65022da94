import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { lazy, type ReactNode, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ObservationList } from '../criteria/ObservationList';
import { AlarmList } from '../live/AlarmList';
import { useFrozenReason } from '../../components/frozen';
import { useCriteriaLists } from '../criteria/use-criteria-inputs';
import classes from '../live/live.module.css';
import { LiveCurvesSlot } from './LiveCurvesSlot';
import type { LiveData } from '../live/LiveGate';
import { MainDisplay } from '../live/MainDisplay';
import { useReadAuth } from '../stream/read-auth';
import { SidePanel } from '../live/SidePanel';
import { useLiveStream } from '../stream/use-live-stream';
import { useLiveViewState, viewControls } from '../live/use-live-view-state';

// Staff-only controls (observations, exclusions): a chunk a client's live view never loads.
const StaffTools = lazy(() => import('../criteria/StaffTools'));

/**
 * The live layout of docs/behaviour.md §2: the main area (photo with thermocouples, or a camera) beside the side
 * panel, the curves below. One socket for the page; its frames feed the canvas, the panel and the curves,
 * its CRITERIA messages (the criteria the server keeps) the panel and the curves' limits and marks.
 */
export function LiveScreen({
  data,
  onRefused,
  actions,
}: {
  data: LiveData;
  /** The stream refused a connection (a viewer's token may have expired). */
  onRefused?: (error?: unknown) => void;
  /** Extra links beside the title (the staff view's monitor link). */
  actions?: ReactNode;
}) {
  const { t } = useTranslation('live');
  const auth = useReadAuth();
  const { research } = data;
  const stream = useLiveStream(research.id, auth, { enabled: true, onRefused, firstTicket: data.streamTicket });
  const view = useLiveViewState(data);
  // The lists shown (and marked on the curves); the criteria themselves are the server's, pushed on the stream.
  const { observations, exclusions } = useCriteriaLists(auth, research.id);
  const { criteria } = stream;
  const names = useMemo(() => new Map(data.markers.map((m) => [m.thermo_id, m.name])), [data.markers]);
  const thermocouples = useMemo(
    () => [...names].map(([thermo_id, name]) => ({ thermo_id, name })).sort((a, b) => a.thermo_id - b.thermo_id),
    [names],
  );
  const staff = auth.kind === 'staff';
  const frozen = useFrozenReason(research);

  return (
    <Stack gap="md" data-testid="live-view">
      <Group justify="space-between" align="center" wrap="wrap" gap="xs">
        <Title order={1} fz={{ base: 20, sm: 26 }} lh={1.2}>
          {research.name}
        </Title>
        {actions}
      </Group>
      <div className={classes.layout}>
        <section className={classes.main} aria-label={t('view.mainArea')}>
          <MainDisplay view={view} researchId={research.id} frames={stream.frames} loading={!data.ready} />
        </section>
        <aside aria-label={t('view.sidePanel')}>
          <SidePanel
            {...viewControls(view)}
            research={research}
            frames={stream.frames}
            status={stream.status}
            markers={data.markers}
            criteria={criteria}
            names={names}
          />
        </aside>
      </div>
      {staff ? <AlarmList researchId={research.id} /> : null}
      {staff ? (
        <Suspense fallback={null}>
          <StaffTools
            auth={auth}
            researchId={research.id}
            observations={observations}
            exclusions={exclusions}
            thermocouples={thermocouples}
            now={() => stream.frames.latest()?.time ?? criteria?.elapsed ?? null}
            frozen={frozen}
          />
        </Suspense>
      ) : observations.length > 0 ? (
        <Paper
          withBorder
          radius="md"
          p="md"
          component="section"
          aria-label={t('observation.title', { ns: 'criteria' })}
        >
          <Text fw={700} size="sm" mb="xs">
            {t('observation.title', { ns: 'criteria' })}
          </Text>
          <ObservationList observations={observations} />
        </Paper>
      ) : null}
      {/* Mounted once the layout has its final size: it loads the charts only when scrolled near. */}
      {data.ready ? (
        <section aria-label={t('view.curves')}>
          <LiveCurvesSlot
            research={research}
            markers={data.markers}
            frames={stream.frames}
            observations={observations}
            exclusions={exclusions}
            criteria={criteria}
          />
        </section>
      ) : null}
    </Stack>
  );
}
