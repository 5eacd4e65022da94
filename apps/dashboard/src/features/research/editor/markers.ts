import {
  formatThermoConfig,
  MAX_THERMO_NAME_LENGTH,
  measurementType,
  type MeasurementTypeName,
  type ThermoMarker,
  zoneApplies,
} from '@furnace/contracts';
import type { Marker } from '../../../api/research-types';

/*
 * The thermocouple editor's rules as plain functions (docs/behaviour.md §4.8): where a new marker goes
 * and how it is numbered, moving and resizing inside the photo, which labels overlap, and the file the
 * editor saves (the config file format, written by the serialiser the server's parser reads back).
 */

export interface Size {
  readonly width: number;
  readonly height: number;
}

export interface Point {
  readonly x: number;
  readonly y: number;
}

/** A marker being edited: what the config file holds, plus a key that survives renumbering. */
export type EditorMarker = ThermoMarker & { readonly key: string };

type Box = Pick<ThermoMarker, 'label_x' | 'label_y' | 'label_width' | 'label_height'>;

let keys = 0;
const newKey = () => `m${++keys}`;

/** The markers of a stored config, by thermocouple number, ready to edit. */
export function toEditorMarkers(markers: readonly Marker[]): EditorMarker[] {
  return [...markers]
    .sort((a, b) => a.thermo_id - b.thermo_id)
    .map(({ id: _id, config_id: _config, ...marker }) => ({
      ...marker,
      type_name: marker.type_name as MeasurementTypeName,
      zone: marker.zone ?? null,
      key: newKey(),
    }));
}

/** Sizes of a new marker: those of the config files written by hand on a ~1000 px photo, grown with larger photos. */
export function defaultSizes(image: Size): Pick<ThermoMarker, 'item_size' | 'label_width' | 'label_height'> {
  const scale = Math.max(1, Math.max(image.width, image.height) / 1000);
  return {
    item_size: Math.round(14 * scale),
    label_width: Math.round(64 * scale),
    label_height: Math.round(24 * scale),
  };
}

/** The number after the highest one in use (1 for the first): T1, T2, … continue after what exists. */
export function nextThermoId(markers: readonly ThermoMarker[]): number {
  return markers.reduce((max, m) => Math.max(max, m.thermo_id), 0) + 1;
}

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), Math.max(min, max));

/** The marker with its square and its label box inside the photo (sizes shrunk to the photo if larger). */
export function clampMarker<M extends ThermoMarker>(marker: M, image: Size): M {
  const item_size = Math.min(marker.item_size, image.width, image.height);
  const label_width = Math.min(marker.label_width, image.width);
  const label_height = Math.min(marker.label_height, image.height);
  return {
    ...marker,
    item_size,
    label_width,
    label_height,
    item_x: clamp(marker.item_x, 0, image.width - item_size),
    item_y: clamp(marker.item_y, 0, image.height - item_size),
    label_x: clamp(marker.label_x, 0, image.width - label_width),
    label_y: clamp(marker.label_y, 0, image.height - label_height),
  };
}

/** The label's place for a square: to its right, centred on it; to its left where the right has no room. */
function labelBeside(
  item: Pick<ThermoMarker, 'item_x' | 'item_y' | 'item_size'>,
  label: Pick<ThermoMarker, 'label_width' | 'label_height'>,
  image: Size,
) {
  const gap = Math.max(4, Math.round(item.item_size / 3));
  const right = item.item_x + item.item_size + gap;
  const label_x = right + label.label_width <= image.width ? right : item.item_x - gap - label.label_width;
  return { label_x, label_y: Math.round(item.item_y + item.item_size / 2 - label.label_height / 2) };
}

/**
 * A new marker centred where the photo was clicked (photo pixels), numbered after the highest number in
 * use, of the given measurement type in its colour, with its label beside it; all inside the photo.
 */
export function placeMarker(
  markers: readonly ThermoMarker[],
  at: Point,
  type: MeasurementTypeName,
  image: Size,
): EditorMarker {
  const thermo_id = nextThermoId(markers);
  const sizes = defaultSizes(image);
  const item_size = Math.min(sizes.item_size, image.width, image.height);
  const item = {
    item_size,
    item_x: clamp(Math.round(at.x - item_size / 2), 0, image.width - item_size),
    item_y: clamp(Math.round(at.y - item_size / 2), 0, image.height - item_size),
  };
  const marker = {
    key: newKey(),
    thermo_id,
    name: `T${thermo_id}`,
    type_name: type,
    color_hex: measurementType(type).color,
    ...item,
    ...sizes,
    zone: null,
  };
  return clampMarker({ ...marker, item_size, ...labelBeside(item, sizes, image) }, image);
}

/**
 * The marker moved by (dx, dy) with its label, as one piece: the move stops where the square or the
 * label would leave the photo, so the two keep their places relative to each other.
 */
export function moveMarker<M extends ThermoMarker>(marker: M, dx: number, dy: number, image: Size): M {
  const m = clampMarker(marker, image);
  const ddx = clamp(
    dx,
    -Math.min(m.item_x, m.label_x),
    Math.min(image.width - m.item_size - m.item_x, image.width - m.label_width - m.label_x),
  );
  const ddy = clamp(
    dy,
    -Math.min(m.item_y, m.label_y),
    Math.min(image.height - m.item_size - m.item_y, image.height - m.label_height - m.label_y),
  );
  return { ...m, item_x: m.item_x + ddx, item_y: m.item_y + ddy, label_x: m.label_x + ddx, label_y: m.label_y + ddy };
}

/** The label box alone moved to (x, y), inside the photo. */
export function moveLabel<M extends ThermoMarker>(marker: M, to: Point, image: Size): M {
  return clampMarker({ ...marker, label_x: to.x, label_y: to.y }, image);
}

/** A new square size, the square keeping its centre; inside the photo. */
export function resizeMarker<M extends ThermoMarker>(marker: M, size: number, image: Size): M {
  const item_size = Math.max(1, Math.round(size));
  const shift = (marker.item_size - item_size) / 2;
  return clampMarker(
    { ...marker, item_size, item_x: Math.round(marker.item_x + shift), item_y: Math.round(marker.item_y + shift) },
    image,
  );
}

/**
 * Another measurement type; the marker takes its colour. A type for which a zone means nothing drops the
 * zone, so the file never holds one the table no longer shows.
 */
export function retypeMarker<M extends ThermoMarker>(marker: M, type: MeasurementTypeName): M {
  return {
    ...marker,
    type_name: type,
    color_hex: measurementType(type).color,
    zone: zoneApplies(type) ? marker.zone : null,
  };
}

/** A name the config file can carry: no field separator, `#` or line break, at most the file's length. */
export function cleanName(name: string): string {
  return [...name.replace(/[;\t#\r\n]/g, '').trim()].slice(0, MAX_THERMO_NAME_LENGTH).join('');
}

const overlap = (a: Box, b: Box) =>
  a.label_x < b.label_x + b.label_width &&
  b.label_x < a.label_x + a.label_width &&
  a.label_y < b.label_y + b.label_height &&
  b.label_y < a.label_y + a.label_height;

/** Every pair of markers whose label boxes overlap (touching edges do not), in the order of the list. */
export function overlappingLabels<M extends ThermoMarker>(markers: readonly M[]): [M, M][] {
  // Sweep along x: only boxes that start before one ends can overlap it.
  const order = markers.map((m, i) => ({ m, i })).sort((a, b) => a.m.label_x - b.m.label_x || a.i - b.i);
  const pairs: { a: number; b: number; pair: [M, M] }[] = [];
  for (let s = 0; s < order.length; s++) {
    const first = order[s]!;
    for (let t = s + 1; t < order.length && order[t]!.m.label_x < first.m.label_x + first.m.label_width; t++) {
      const second = order[t]!;
      if (!overlap(first.m, second.m)) continue;
      const [a, b] = first.i < second.i ? [first, second] : [second, first];
      pairs.push({ a: a.i, b: b.i, pair: [a.m, b.m] });
    }
  }
  return pairs.sort((p, q) => p.a - q.a || p.b - q.b).map((p) => p.pair);
}

/** Thermocouple numbers used by more than one marker (the file allows each once). */
export function duplicateIds(markers: readonly ThermoMarker[]): number[] {
  const seen = new Set<number>();
  const twice = new Set<number>();
  for (const m of markers) (seen.has(m.thermo_id) ? twice : seen).add(m.thermo_id);
  return [...twice].sort((a, b) => a - b);
}

/** The config file's text of these markers (header, one line each). */
export function configText(markers: readonly EditorMarker[]): string {
  return formatThermoConfig(markers.map(({ key: _key, ...marker }) => marker));
}

/** The config file of these markers, as the editor saves and downloads it (UTF-8). */
export function configFile(markers: readonly EditorMarker[], filename: string): File {
  return new File([configText(markers)], filename, { type: 'text/plain;charset=utf-8' });
}
