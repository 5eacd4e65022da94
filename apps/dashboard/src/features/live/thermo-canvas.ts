import { formatValue } from '@furnace/contracts';
import { exceedsCritical, type ThermoValues, valueForThermo } from '../../lib/category-stats';
import Konva from 'konva/lib/Core';
import type { Context } from 'konva/lib/Context';
import type { Layer } from 'konva/lib/Layer';
import { Image as KonvaImage } from 'konva/lib/shapes/Image';
import { Rect } from 'konva/lib/shapes/Rect';
import { Shape } from 'konva/lib/Shape';
import type { Stage } from 'konva/lib/Stage';
import type { Marker } from '../../api/research-types';

/*
 * The live view's canvas (Excalidraw's split of static and interactive canvases): the photo and the
 * marker squares on a static layer, drawn only when the photo, the size or the shown categories
 * change; the label boxes on their own layer. A DATA frame sets the text and fill of the labels whose
 * content changed and redraws the label layer only. Nothing listens for pointer events: both layers
 * are listening(false), so Konva draws no hit canvas.
 *
 * The labels are plain records (by thermo_id). Their boxes never change with a frame: one shape on the
 * static layer draws them all. One shape on the label layer draws what a frame changes, the texts and
 * the light red of a reading above its critical value, in a few batched passes (one font set per
 * size, one path per colour). With a Rect and a Text node per label, 300 labels took ~10 ms to update
 * (Konva measures every text it is given) and ~24 ms to draw; this way ~0.2 ms and ~1.5 ms (software
 * rendering, bench/canvas.bench.ts).
 */

// This module says when a layer is drawn (a frame: the label layer, once); Konva's auto-draw would
// schedule a redraw from every attribute set.
Konva.autoDrawEnabled = false;

/** 'name': labels show the thermocouple's name; 'temperature' ('tryb termopar'): its live reading. */
export type LabelMode = 'name' | 'temperature';

export const LABEL_FILL = 'rgba(255, 255, 255, 0.92)';
/** A reading above the critical max of its type (docs/behaviour.md §2: light red). */
export const LABEL_FILL_CRITICAL = '#ffcdd2';
const LABEL_TEXT = '#111111';
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

export interface LabelContent {
  readonly text: string;
  readonly fill: string;
}

/** The text and fill of one label for a reading (null: no data → '---'). */
export function labelContent(
  marker: Pick<Marker, 'name' | 'type_name'>,
  value: number | null,
  mode: LabelMode,
): LabelContent {
  return {
    text: mode === 'temperature' ? formatValue(value) : marker.name,
    fill: exceedsCritical(marker.type_name, value) ? LABEL_FILL_CRITICAL : LABEL_FILL,
  };
}

/** One label box on the canvas: what it shows now. */
export interface Label {
  readonly marker: Marker;
  readonly fontSize: number;
  text: string;
  fill: string;
  visible: boolean;
}

export interface ThermoScene {
  readonly stage: Stage;
  readonly staticLayer: Layer;
  readonly labelLayer: Layer;
  readonly photo: KonvaImage;
  /** The one shape of the label layer: the texts and critical fills of every visible label. */
  readonly labelShape: Shape;
  /** Labels by thermo_id (a thermocouple drawn twice on one photo has two). */
  readonly labels: Map<number, Label[]>;
  /** Marker squares by type_name, for the category toggles. */
  readonly markersByType: Map<string, Rect[]>;
  readonly imageWidth: number;
  readonly imageHeight: number;
}

/** Konva's name of the label shape (tests and the benchmark read its labels through `getAttr('labels')`). */
export const LABEL_SHAPE_NAME = 'thermo-labels';
const LABEL_STROKE_PX = 1.5;

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Bold digits are ~0.62 em wide: the size at which a reading such as '1023.4' fits its box. */
export function labelFontSize(marker: Pick<Marker, 'label_width' | 'label_height'>): number {
  const byHeight = Math.round(marker.label_height * 0.62);
  const byWidth = Math.floor((marker.label_width - 4) / (6 * 0.62));
  return Math.max(6, Math.min(byHeight, byWidth));
}

/** The visible labels grouped by `key`, in drawing order. */
function groupVisible<K>(
  labels: readonly Label[],
  key: (label: Label) => K,
  only?: (label: Label) => boolean,
): Map<K, Label[]> {
  const groups = new Map<K, Label[]>();
  for (const label of labels) if (label.visible && (!only || only(label))) push(groups, key(label), label);
  return groups;
}

function boxes(ctx: CanvasRenderingContext2D, groups: Map<string, Label[]>, paint: 'fill' | 'stroke'): void {
  for (const [style, group] of groups) {
    if (paint === 'fill') ctx.fillStyle = style;
    else ctx.strokeStyle = style;
    ctx.beginPath();
    for (const { marker: m } of group) ctx.rect(m.label_x, m.label_y, m.label_width, m.label_height);
    ctx[paint]();
  }
}

const exceeded = (label: Label) => label.fill !== LABEL_FILL;

/**
 * The label boxes as they are without data (white, framed in the marker's colour): they never change
 * with a frame, so they are drawn on the static layer, under the label layer.
 */
export function drawLabelBoxes(ctx: CanvasRenderingContext2D, labels: readonly Label[], scale: number): void {
  ctx.fillStyle = LABEL_FILL;
  ctx.beginPath();
  for (const { marker: m, visible } of labels)
    if (visible) ctx.rect(m.label_x, m.label_y, m.label_width, m.label_height);
  ctx.fill();
  ctx.lineWidth = LABEL_STROKE_PX / (scale || 1);
  boxes(
    ctx,
    groupVisible(labels, (label) => label.marker.color_hex),
    'stroke',
  );
}

/**
 * What a frame changes, drawn with as few canvas state changes as possible: the light red of the
 * labels above their critical value (re-framed), then every text, grouped by font size, centred.
 */
export function drawLabels(ctx: CanvasRenderingContext2D, labels: readonly Label[], scale: number): void {
  const hot = groupVisible(labels, (label) => label.fill, exceeded);
  if (hot.size > 0) {
    boxes(ctx, hot, 'fill');
    ctx.lineWidth = LABEL_STROKE_PX / (scale || 1);
    boxes(
      ctx,
      groupVisible(labels, (label) => label.marker.color_hex, exceeded),
      'stroke',
    );
  }
  ctx.fillStyle = LABEL_TEXT;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (const [size, group] of groupVisible(labels, (label) => label.fontSize)) {
    ctx.font = `bold ${size}px ${FONT}`;
    for (const { marker: m, text } of group) {
      // No maxWidth: it makes fillText a third slower; labelFontSize() makes a reading fit instead.
      ctx.fillText(text, m.label_x + m.label_width / 2, m.label_y + m.label_height / 2 + 0.5);
    }
  }
}

/**
 * Builds the stage in `container`: the photo (`imageWidth` × `imageHeight`, the markers'
 * coordinate space) scaled to fit `width` × `height`, the markers and the labels (no data yet).
 */
export function createThermoScene(options: {
  container: HTMLDivElement;
  markers: readonly Marker[];
  imageWidth: number;
  imageHeight: number;
  width: number;
  height: number;
  mode?: LabelMode;
}): ThermoScene {
  const { markers, imageWidth, imageHeight } = options;
  const stage = new Konva.Stage({
    container: options.container,
    width: options.width,
    height: options.height,
    listening: false,
  });
  const staticLayer = new Konva.Layer({ listening: false });
  const labelLayer = new Konva.Layer({ listening: false });
  stage.add(staticLayer, labelLayer);

  const photo = new KonvaImage({
    x: 0,
    y: 0,
    width: imageWidth,
    height: imageHeight,
    image: undefined,
    listening: false,
  });
  staticLayer.add(photo);

  const markersByType = new Map<string, Rect[]>();
  const labels = new Map<number, Label[]>();
  const all: Label[] = [];
  const mode = options.mode ?? 'name';
  for (const marker of markers) {
    const square = new Rect({
      x: marker.item_x,
      y: marker.item_y,
      width: marker.item_size,
      height: marker.item_size,
      fill: marker.color_hex,
      stroke: '#ffffff',
      strokeWidth: 1,
      strokeScaleEnabled: false,
      perfectDrawEnabled: false,
      listening: false,
    });
    staticLayer.add(square);
    push(markersByType, marker.type_name, square);

    const shown = labelContent(marker, null, mode);
    const label: Label = { marker, fontSize: labelFontSize(marker), text: shown.text, fill: shown.fill, visible: true };
    push(labels, marker.thermo_id, label);
    all.push(label);
  }
  // Above the photo and the markers: a label box covers the photo, never its own marker's square.
  staticLayer.add(
    new Shape({
      listening: false,
      perfectDrawEnabled: false,
      sceneFunc: (context: Context) => drawLabelBoxes(context._context, all, stage.scaleX()),
    }),
  );
  const labelShape = new Shape({
    name: LABEL_SHAPE_NAME,
    labels: all,
    listening: false,
    perfectDrawEnabled: false,
    sceneFunc: (context: Context) => drawLabels(context._context, all, stage.scaleX()),
  });
  labelLayer.add(labelShape);

  const scene: ThermoScene = {
    stage,
    staticLayer,
    labelLayer,
    photo,
    labelShape,
    labels,
    markersByType,
    imageWidth,
    imageHeight,
  };
  resizeScene(scene, options.width, options.height);
  if (globalThis.__furnaceCanvasBench) globalThis.__furnaceCanvasBenchScene = { scene, applyFrame };
  return scene;
}

/** Fits the photo into `width` × `height` keeping its proportions; the stage takes the fitted size. */
export function resizeScene(scene: ThermoScene, width: number, height: number): { width: number; height: number } {
  const scale = Math.max(0.01, Math.min(width / scene.imageWidth, height / scene.imageHeight));
  const fitted = { width: Math.round(scene.imageWidth * scale), height: Math.round(scene.imageHeight * scale) };
  scene.stage.size(fitted);
  scene.stage.scale({ x: scale, y: scale });
  scene.stage.batchDraw();
  return fitted;
}

/** Puts the photo under the markers (it loads after the scene is built). */
export function setScenePhoto(scene: ThermoScene, image: HTMLImageElement | null): void {
  scene.photo.image(image ?? undefined);
  scene.staticLayer.batchDraw();
}

/**
 * Sets the text and fill of every label whose content changed for these readings; draws nothing.
 * Returns how many labels changed.
 */
export function updateLabels(scene: ThermoScene, values: ThermoValues | null | undefined, mode: LabelMode): number {
  let changed = 0;
  for (const [thermoId, group] of scene.labels) {
    const value = valueForThermo(values, thermoId);
    for (const label of group) {
      const next = labelContent(label.marker, value, mode);
      if (next.text === label.text && next.fill === label.fill) continue;
      label.text = next.text;
      label.fill = next.fill;
      changed++;
    }
  }
  return changed;
}

/**
 * Set by the canvas benchmark (bench/canvas.bench.ts) before the page loads: applyFrame then records
 * its duration (ms), and the newest scene is handed over for a measurement without the live stream.
 * Unset (always, outside the benchmark) neither costs anything.
 */
declare global {
  var __furnaceCanvasBench: number[] | undefined;
  var __furnaceCanvasBenchScene: { scene: ThermoScene; applyFrame: typeof applyFrame } | undefined;
}

/** A DATA frame on the canvas: the changed labels, then one batched redraw of the label layer only. */
export function applyFrame(scene: ThermoScene, values: ThermoValues | null | undefined, mode: LabelMode): number {
  const probe = globalThis.__furnaceCanvasBench;
  const started = probe ? performance.now() : 0;
  const changed = updateLabels(scene, values, mode);
  if (changed > 0) scene.labelLayer.batchDraw();
  if (probe) probe.push(performance.now() - started);
  return changed;
}

/** Hides the markers and labels of the categories in `hidden`, shows the others; redraws both layers if anything changed. */
export function setHiddenCategories(scene: ThermoScene, hidden: ReadonlySet<string>): void {
  let changed = false;
  for (const [typeName, squares] of scene.markersByType) {
    const visible = !hidden.has(typeName);
    for (const square of squares) {
      if (square.visible() === visible) continue;
      square.visible(visible);
      changed = true;
    }
  }
  for (const group of scene.labels.values()) {
    for (const label of group) {
      const visible = !hidden.has(label.marker.type_name);
      if (label.visible === visible) continue;
      label.visible = visible;
      changed = true;
    }
  }
  if (changed) {
    scene.staticLayer.batchDraw();
    scene.labelLayer.batchDraw();
  }
}

export function destroyScene(scene: ThermoScene): void {
  scene.stage.destroy();
}
