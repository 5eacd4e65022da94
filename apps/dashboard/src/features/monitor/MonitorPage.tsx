import { ActionIcon, Box, Button, Group, Paper, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconArrowLeft, IconMaximize, IconPlayerPlay, IconRefresh } from '@tabler/icons-react';
import { formatDeviation, formatValue, type FrameSource } from '@furnace/contracts';
import { conformityColor, NO_DEVIATION, pressureTargetText } from '../criteria/criteria-format';
import { TolerancePeriods } from '../criteria/TolerancePeriods';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Marker } from '../../api/research-types';
import { ButtonLink } from '../../components/ButtonLink';
import { Logo } from '../../components/Logo';
import { AlarmList } from '../live/AlarmList';
import { overallStats } from '../live/categories';
import { ConnectionIndicator } from '../live/ConnectionIndicator';
import { LanguageSelect } from '../live/LanguageSelect';
import { liveKeys } from '../stream/live-keys';
import type { LiveData } from '../live/LiveGate';
import { MainDisplay } from '../live/MainDisplay';
import {
  CategoryToggles,
  ElapsedTime,
  FrameValue,
  measurementsOf,
  ThermoModeToggle,
  ViewCycler,
} from '../live/SidePanel';
import { STAFF_AUTH, StaffLiveGate } from '../live/StaffLiveGate';
import { useFrameValue } from '../stream/use-frame';
import { useLiveStream } from '../stream/use-live-stream';
import { useLiveViewState } from '../live/use-live-view-state';
import liveClasses from '../live/live.module.css';
import classes from './monitor.module.css';
import { MONITOR_CYCLE_MS, useAutoCycle } from './use-auto-cycle';

function Tile({
  label,
  children,
  unit,
  testId,
  color,
  extra,
}: {
  label: string;
  children: ReactNode;
  unit?: string;
  testId: string;
  color?: string;
  extra?: ReactNode;
}) {
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      className={classes.tile}
      data-testid={testId}
      style={
        color
          ? {
              borderColor: `var(--mantine-color-${color}-6)`,
              borderWidth: 3,
              background: `var(--mantine-color-${color}-light)`,
            }
          : undefined
      }
    >
      <Text size="sm" c="dimmed" lh={1.2}>
        {label}
      </Text>
      <Text className={classes.value} ff="monospace" fw={700}>
        <span data-testid={`${testId}-value`}>{children}</span>
        {unit ? (
          <Text span c="dimmed" ff="inherit" fz="0.45em" ml={6}>
            {unit}
          </Text>
        ) : null}
      </Text>
      {extra}
    </Paper>
  );
}

function ThermoSummary({
  frames,
  markers,
  which,
}: {
  frames: FrameSource;
  markers: readonly Marker[];
  which: 'max' | 'mean';
}) {
  return <>{useFrameValue(frames, (frame) => formatValue(overallStats(markers, frame?.thermocouples_out)[which]))}</>;
}

/** Periods outside a tolerance a tile lists (the newest): a wall display has no room for a long test's list. */
const MONITOR_PERIODS = 3;

/** Space for the header bar when the photo is fitted to the screen. */
const photoHeight = (viewportHeight: number) => Math.max(240, viewportHeight - 110);

function MonitorScreen({ data }: { data: LiveData }) {
  const { t } = useTranslation('live');
  const queryClient = useQueryClient();
  const { research } = data;
  const stream = useLiveStream(research.id, STAFF_AUTH, { enabled: true, firstTicket: data.streamTicket });
  const view = useLiveViewState(data);
  const auto = useAutoCycle(view.items.length > 1, () => view.step(1), MONITOR_CYCLE_MS);
  // The lab's criteria as the server keeps them, pushed on the stream (null until the first).
  const { criteria } = stream;
  const deviation = criteria?.deviation ?? NO_DEVIATION;
  const deColor = conformityColor(deviation);
  const pressure = criteria?.pressure ?? null;
  const pressureColor = pressure ? conformityColor(pressure) : 'gray';
  const { t: tc } = useTranslation('criteria');

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: liveKeys.scope(STAFF_AUTH, research.id) });
    stream.reconnect();
  };

  return (
    <Box className={classes.screen} data-testid="monitor">
      <Group className={classes.bar} justify="space-between" wrap="wrap" gap="sm">
        <Group gap="md" wrap="nowrap" miw={0}>
          <Logo />
          <Stack gap={0} miw={0}>
            <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
              {t('monitor.title')}
            </Text>
            <Title order={1} fz={{ base: 18, md: 22 }} lh={1.2} lineClamp={1}>
              {research.name}
            </Title>
          </Stack>
        </Group>
        <Group gap="sm" wrap="wrap" align="center">
          <ConnectionIndicator status={stream.status} size="lg" />
          <Button
            variant={auto.on ? 'filled' : 'default'}
            aria-pressed={auto.on}
            onClick={auto.toggle}
            leftSection={<IconPlayerPlay size={18} aria-hidden />}
            data-testid="monitor-auto"
          >
            {t('monitor.auto')}
          </Button>
          <Box w={220}>
            <ThermoModeToggle
              on={view.thermoMode}
              onToggle={() => view.setThermoMode((on) => !on)}
              label={t('monitor.thermoPreview')}
            />
          </Box>
          <Button variant="default" onClick={refresh} leftSection={<IconRefresh size={18} aria-hidden />}>
            {t('monitor.refresh')}
          </Button>
          <Tooltip label={t('monitor.fullscreen')}>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={t('monitor.fullscreen')}
              onClick={() => void document.documentElement.requestFullscreen?.().catch(() => undefined)}
            >
              <IconMaximize size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <Box w={150}>
            <LanguageSelect compact />
          </Box>
          <ButtonLink
            to="/research/$researchId/view"
            params={{ researchId: research.id }}
            variant="subtle"
            leftSection={<IconArrowLeft size={18} aria-hidden />}
          >
            {t('monitor.back')}
          </ButtonLink>
        </Group>
      </Group>

      <div className={`${liveClasses.layout} ${classes.body}`}>
        <section className={liveClasses.main} aria-label={t('view.mainArea')}>
          <MainDisplay
            view={view}
            researchId={research.id}
            frames={stream.frames}
            loading={!data.ready}
            maxHeight={photoHeight}
          />
          <Box mt="sm" maw={360}>
            <ViewCycler items={view.items} current={view.current} onStep={view.step} />
          </Box>
        </section>
        <aside className={liveClasses.main} aria-label={t('view.sidePanel')}>
          <SimpleGrid cols={2} spacing="sm">
            <Tile label={t('monitor.duration')} testId="monitor-duration">
              <ElapsedTime frames={stream.frames} />
            </Tile>
            {measurementsOf(research).map((m) => {
              // The pressure against the profile's target, where it sets one.
              const judged = m.field === 'pressure' ? pressure : null;
              return (
                <Tile
                  key={m.field}
                  label={t(`monitor.${m.field === 'pk' ? 'furnace' : m.field}`)}
                  unit={t(m.unit)}
                  testId={`monitor-${m.field}`}
                  color={judged && pressureColor !== 'gray' ? pressureColor : undefined}
                  extra={
                    judged ? (
                      <>
                        <Text
                          size="sm"
                          c="dimmed"
                          data-testid="monitor-pressure-target"
                          data-ok={judged.ok === null ? 'unknown' : String(judged.ok)}
                        >
                          {pressureTargetText(judged, tc)}
                        </Text>
                        <TolerancePeriods
                          periods={judged.periods}
                          quantity="pressure"
                          testId="monitor-pressure"
                          latest={MONITOR_PERIODS}
                        />
                      </>
                    ) : undefined
                  }
                >
                  <FrameValue frames={stream.frames} field={m.field} />
                </Tile>
              );
            })}
            <Tile label={t('t0.title', { ns: 'criteria' })} unit={t('units.temperature')} testId="monitor-t0">
              {formatValue(criteria?.t0)}
            </Tile>
            <Tile
              label={t('panel.deviation', { ns: 'criteria' })}
              testId="monitor-de"
              color={deColor === 'gray' ? undefined : deColor}
              extra={
                <>
                  <Text
                    size="sm"
                    c="dimmed"
                    data-testid="monitor-de-tolerance"
                    data-ok={deviation.ok === null ? 'unknown' : String(deviation.ok)}
                    data-conforming={deviation.conforming === null ? 'unknown' : String(deviation.conforming)}
                  >
                    {deviation.tolerance === null
                      ? t('panel.noTolerance', { ns: 'criteria' })
                      : `${t(deviation.ok ? 'panel.deviationOk' : 'panel.deviationBad', { ns: 'criteria' })} · ${t('panel.tolerance', { ns: 'criteria', value: deviation.tolerance.toFixed(2) })}`}
                  </Text>
                  <TolerancePeriods
                    periods={deviation.periods}
                    quantity="deviation"
                    testId="monitor-de"
                    latest={MONITOR_PERIODS}
                  />
                </>
              }
            >
              <Text span inherit c={deColor === 'gray' ? undefined : `${deColor}.8`}>
                {formatDeviation(deviation.d_e)}
              </Text>
            </Tile>
            <Tile label={t('monitor.thermoMax')} unit={t('units.temperature')} testId="monitor-thermo-max">
              <ThermoSummary frames={stream.frames} markers={data.markers} which="max" />
            </Tile>
            <Tile label={t('monitor.thermoMean')} unit={t('units.temperature')} testId="monitor-thermo-mean">
              <ThermoSummary frames={stream.frames} markers={data.markers} which="mean" />
            </Tile>
          </SimpleGrid>
          <Box mt="sm">
            <AlarmList researchId={research.id} />
          </Box>
          <Paper withBorder radius="md" p="sm" mt="sm">
            <Text fw={700} size="sm" mb="xs">
              {t('monitor.categories')}
            </Text>
            <CategoryToggles
              categories={view.categories}
              markers={data.markers}
              frames={stream.frames}
              hidden={view.hidden}
              onToggle={view.toggle}
              criteria={criteria}
            />
          </Paper>
        </aside>
      </div>
    </Box>
  );
}

/** The furnace monitor (docs/behaviour.md §2, implied by the label set): the lab's wall display of one research. */
export function MonitorPage({ researchId }: { researchId: string }) {
  return <StaffLiveGate researchId={researchId}>{(data) => <MonitorScreen data={data} />}</StaffLiveGate>;
}
