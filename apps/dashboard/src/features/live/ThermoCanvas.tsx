import { Box, Loader, Overlay } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ThermoConfig, Marker } from '../../api/research-types';
import type { FrameSource } from '@furnace/contracts';
import {
  applyFrame,
  createThermoScene,
  destroyScene,
  type LabelMode,
  resizeScene,
  setHiddenCategories,
  setScenePhoto,
  type ThermoScene,
} from './thermo-canvas';

export interface ThermoCanvasProps {
  config: ThermoConfig;
  /** The markers of this config. */
  markers: readonly Marker[];
  /** The photo; the markers are drawn without it until it arrives. */
  image: Blob | undefined;
  frames: FrameSource;
  mode: LabelMode;
  hidden: ReadonlySet<string>;
  /** The tallest the photo may be drawn, px, for a given viewport height. */
  maxHeight?: (viewportHeight: number) => number;
}

const defaultMaxHeight = (viewportHeight: number) => Math.max(240, viewportHeight * 0.78);

/**
 * The configuration photo with its thermocouples on a Konva stage. The component only wires the
 * scene's plain functions (thermo-canvas.ts) to React: it builds the scene when the config or its
 * markers change and subscribes it to the frames; a frame never re-renders React.
 */
export function ThermoCanvas({
  config,
  markers,
  image,
  frames,
  mode,
  hidden,
  maxHeight = defaultMaxHeight,
}: ThermoCanvasProps) {
  const { t } = useTranslation('live');
  const outer = useRef<HTMLDivElement>(null);
  const host = useRef<HTMLDivElement>(null);
  const [scene, setScene] = useState<ThermoScene | null>(null);
  const [photoReady, setPhotoReady] = useState(false);
  // Read by the frame listener: a mode change must not rebuild the scene.
  const current = useRef({ mode, hidden, maxHeight });
  current.current = { mode, hidden, maxHeight };

  const imageWidth = config.image_width > 0 ? config.image_width : 800;
  const imageHeight = config.image_height > 0 ? config.image_height : 500;

  // The scene: built per config and marker set; frames go straight to it.
  useEffect(() => {
    const container = host.current;
    const box = outer.current;
    if (!container || !box) return undefined;
    const width = box.clientWidth || imageWidth;
    const built = createThermoScene({
      container,
      markers,
      imageWidth,
      imageHeight,
      width,
      height: current.current.maxHeight(window.innerHeight),
      mode: current.current.mode,
    });
    setHiddenCategories(built, current.current.hidden);
    applyFrame(built, frames.latest()?.thermocouples_out, current.current.mode);
    const stop = frames.subscribe((frame) => applyFrame(built, frame.thermocouples_out, current.current.mode));

    const fit = () => resizeScene(built, box.clientWidth || width, current.current.maxHeight(window.innerHeight));
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(fit);
    observer?.observe(box);
    window.addEventListener('resize', fit);
    setScene(built);
    return () => {
      stop();
      observer?.disconnect();
      window.removeEventListener('resize', fit);
      destroyScene(built);
      setScene(null);
    };
  }, [markers, imageWidth, imageHeight, frames]);

  // The photo, decoded once per blob.
  useEffect(() => {
    if (!scene || !image) return undefined;
    const url = URL.createObjectURL(image);
    const element = new window.Image();
    let live = true;
    element.onload = () => {
      if (!live) return;
      setScenePhoto(scene, element);
      setPhotoReady(true);
    };
    element.src = url;
    return () => {
      live = false;
      element.onload = null;
      URL.revokeObjectURL(url);
      setPhotoReady(false);
    };
  }, [scene, image]);

  useEffect(() => {
    if (scene) applyFrame(scene, frames.latest()?.thermocouples_out, mode);
  }, [scene, mode, frames]);

  useEffect(() => {
    if (scene) setHiddenCategories(scene, hidden);
  }, [scene, hidden]);

  return (
    <Box
      ref={outer}
      pos="relative"
      w="100%"
      style={{ display: 'flex', justifyContent: 'center', lineHeight: 0 }}
      role="img"
      aria-label={t('view.canvasLabel', { name: config.image_filename })}
      data-testid="thermo-canvas"
      data-config-id={config.id}
      data-mode={mode}
      data-photo={photoReady ? 'loaded' : 'loading'}
    >
      <div ref={host} style={{ borderRadius: 8, overflow: 'hidden', background: '#2b2b2b' }} />
      {!photoReady ? (
        <Overlay center backgroundOpacity={0}>
          <Loader color="white" size="sm" />
        </Overlay>
      ) : null}
    </Box>
  );
}
