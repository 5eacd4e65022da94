import { formatTestTime } from '@furnace/contracts';
import { ActionIcon, Alert, Group, Loader, SegmentedControl, Slider, Stack, Text } from '@mantine/core';
import { IconPlayerPauseFilled, IconPlayerPlayFilled } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Section } from '../../components/Section';
import { errorMessage } from '../../lib/notify';
import { useCriteriaInputs } from '../criteria/use-criteria-inputs';
import classes from '../live/live.module.css';
import { liveConfigsQuery, liveMarkersQuery, liveResearchQuery } from '../stream/live-queries';
import { MainDisplay } from '../live/MainDisplay';
import { ReadAuthProvider } from '../stream/read-auth';
import { SidePanel } from '../live/SidePanel';
import { STAFF_AUTH } from '../live/StaffLiveGate';
import { useLiveViewState, viewControls } from '../live/use-live-view-state';
import { REPLAY_SPEEDS, type ReplaySpeed } from './replay-clock';
import type { ReplayPlayer } from './replay-player';
import { useCriteriaSeed } from './use-criteria-seed';
import { useReplayCriteria, useReplayState } from './use-replay';

const NONE: readonly never[] = [];

/** Play/pause, speed and the slider over the whole test, with the moment's elapsed time. */
function ReplayControls({ player }: { player: ReplayPlayer }) {
  const { t } = useTranslation('history');
  const { clock, loading, error } = useReplayState(player);
  const speeds = useMemo(() => REPLAY_SPEEDS.map((s) => ({ value: String(s), label: `${s}×` })), []);
  return (
    <Stack gap="xs">
      <Group gap="sm" wrap="wrap">
        <ActionIcon
          size="lg"
          variant="filled"
          aria-label={clock.playing ? t('replay.pause') : t('replay.play')}
          onClick={() => (clock.playing ? player.pause() : player.play())}
          data-testid="replay-play"
          data-playing={clock.playing}
        >
          {clock.playing ? (
            <IconPlayerPauseFilled size={18} aria-hidden />
          ) : (
            <IconPlayerPlayFilled size={18} aria-hidden />
          )}
        </ActionIcon>
        <SegmentedControl
          size="xs"
          aria-label={t('replay.speed')}
          data={speeds}
          value={String(clock.speed)}
          onChange={(value) => player.setSpeed(Number(value) as ReplaySpeed)}
          data-testid="replay-speed"
        />
        <Text ff="monospace" fw={700} data-testid="replay-time" data-time={clock.time}>
          {t('replay.position', { time: formatTestTime(clock.time), end: formatTestTime(clock.end) })}
        </Text>
        {loading ? (
          <Group gap={6} wrap="nowrap" data-testid="replay-loading">
            <Loader size="xs" />
            <Text size="xs" c="dimmed">
              {t('replay.loading')}
            </Text>
          </Group>
        ) : null}
      </Group>
      <Slider
        min={clock.start}
        max={clock.end}
        step={1}
        value={clock.time}
        onChange={(value) => player.seek(value)}
        label={(value) => formatTestTime(value)}
        thumbLabel={t('replay.slider')}
        data-testid="replay-slider"
      />
      {error ? (
        <Alert color="red" py={6}>
          {t('replay.error', { message: errorMessage(error) })}
        </Alert>
      ) : null}
    </Stack>
  );
}

/**
 * The replay of docs/behaviour.md §10 on the history page: the live view's photo with its thermocouples and
 * its side panel, fed the stored frame of the chosen moment instead of the live socket.
 */
export function ReplayPanel({ researchId, player }: { researchId: string; player: ReplayPlayer }) {
  const { t } = useTranslation('history');
  const research = useQuery(liveResearchQuery(STAFF_AUTH, researchId));
  const configs = useQuery(liveConfigsQuery(STAFF_AUTH, researchId));
  const markers = useQuery(liveMarkersQuery(STAFF_AUTH, researchId));
  const markerList = markers.data ?? NONE;
  const data = useMemo(
    () => ({
      urls: NONE,
      configs: configs.data ?? NONE,
      markers: markerList,
      ready: !configs.isPending && !markers.isPending,
    }),
    [configs.data, configs.isPending, markers.isPending, markerList],
  );
  // Temperatures on the photo from the start: what a replay is for.
  const view = useLiveViewState(data, true);
  const criteria = useReplayCriteria(player);
  const names = useMemo(() => new Map(markerList.map((m) => [m.thermo_id, m.name])), [markerList]);
  return (
    <ReadAuthProvider auth={STAFF_AUTH}>
      <Section title={t('replay.title')}>
        <Stack gap="md" data-testid="replay">
          <Text size="sm" c="dimmed">
            {t('replay.hint')}
          </Text>
          <ReplayControls player={player} />
          {research.data ? (
            <ReplayCriteriaFeed player={player} researchId={researchId} research={research.data} markers={markerList} />
          ) : null}
          {research.data ? (
            <div className={classes.layout}>
              <section className={classes.main} aria-label={t('replay.title')}>
                {view.items.length === 0 && data.ready ? (
                  <Text c="dimmed">{t('replay.noPhotos')}</Text>
                ) : (
                  <MainDisplay view={view} researchId={researchId} frames={player.frames} loading={!data.ready} />
                )}
              </section>
              <aside>
                <SidePanel
                  {...viewControls(view)}
                  research={research.data}
                  frames={player.frames}
                  markers={markerList}
                  criteria={criteria}
                  names={names}
                  footer={false}
                />
              </aside>
            </div>
          ) : (
            <Loader size="sm" />
          )}
        </Stack>
      </Section>
    </ReadAuthProvider>
  );
}

/** Gives the player what the live view's criteria engine starts from, once known. */
function ReplayCriteriaFeed({
  player,
  researchId,
  research,
  markers,
}: {
  player: ReplayPlayer;
  researchId: string;
  research: Parameters<typeof useCriteriaInputs>[1];
  markers: Parameters<typeof useCriteriaInputs>[2];
}) {
  const { inputs } = useCriteriaInputs(STAFF_AUTH, research, markers);
  const { history, inputs: seeded } = useCriteriaSeed(STAFF_AUTH, researchId, inputs, true);
  const done = history.isSuccess || history.isError;
  useEffect(() => {
    player.setCriteria(seeded && done ? seeded : null, history.data ?? null);
  }, [player, seeded, done, history.data]);
  return null;
}
