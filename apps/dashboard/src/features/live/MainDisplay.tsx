import { Center, Skeleton, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ThermoConfig, Marker } from '../../api/research-types';
import { CameraView } from './CameraView';
import type { FrameSource } from '@furnace/contracts';
import { liveImageQuery } from '../stream/live-queries';
import { useReadAuth } from '../stream/read-auth';
import type { LabelMode } from './thermo-canvas';
import { ThermoCanvas } from './ThermoCanvas';
import type { LiveViewState } from './use-live-view-state';

const NO_MARKERS: readonly Marker[] = [];

function PhotoView(props: {
  researchId: string;
  config: ThermoConfig;
  markers: readonly Marker[];
  frames: FrameSource;
  mode: LabelMode;
  hidden: ReadonlySet<string>;
  maxHeight?: (viewportHeight: number) => number;
}) {
  const auth = useReadAuth();
  const image = useQuery(liveImageQuery(auth, props.researchId, props.config.id));
  return <ThermoCanvas {...props} image={image.data} />;
}

/** The main area (docs/behaviour.md §2): the selected photo with its thermocouples, or the selected camera. */
export function MainDisplay({
  view,
  researchId,
  frames,
  loading = false,
  maxHeight,
}: {
  view: Pick<LiveViewState, 'current' | 'markersByConfig' | 'mode' | 'hidden'>;
  researchId: string;
  frames: FrameSource;
  /** The photos and cameras are still being read. */
  loading?: boolean;
  maxHeight?: (viewportHeight: number) => number;
}) {
  const { t } = useTranslation('live');
  const item = view.current;
  if (!item && loading)
    return <Skeleton w="100%" style={{ aspectRatio: '16 / 10' }} radius="md" data-testid="main-loading" />;
  if (!item) {
    return (
      <Center mih={240} bg="var(--mantine-color-gray-1)" style={{ borderRadius: 8 }}>
        <Text c="dimmed">{t('view.nothingToShow')}</Text>
      </Center>
    );
  }
  if (item.kind === 'camera') return <CameraView embed={item.embed} />;
  return (
    <PhotoView
      researchId={researchId}
      config={item.config}
      markers={view.markersByConfig.get(item.config.id) ?? NO_MARKERS}
      frames={frames}
      mode={view.mode}
      hidden={view.hidden}
      maxHeight={maxHeight}
    />
  );
}
