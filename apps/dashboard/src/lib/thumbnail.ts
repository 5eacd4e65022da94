import type { Marker } from '../api/research-types';

/** What an SVG thumbnail draws for one thermocouple, in the photo's own pixel coordinates. */
export interface MarkerShape {
  key: string;
  color: string;
  marker: { x: number; y: number; size: number };
  label: { x: number; y: number; width: number; height: number; text: string; fontSize: number };
}

/** Marker squares (top-left at item_x, item_y) and label boxes with the thermocouple's name. */
export function markerShapes(coords: readonly Marker[]): MarkerShape[] {
  return [...coords]
    .sort((a, b) => a.thermo_id - b.thermo_id)
    .map((c) => ({
      key: c.id,
      color: c.color_hex,
      marker: { x: c.item_x, y: c.item_y, size: c.item_size },
      label: {
        x: c.label_x,
        y: c.label_y,
        width: c.label_width,
        height: c.label_height,
        text: c.name,
        fontSize: Math.max(6, Math.round(c.label_height * 0.6)),
      },
    }));
}

/** A stroke width that stays visible when a large photo is scaled down to a thumbnail. */
export function strokeFor(imageWidth: number, displayWidth: number): number {
  if (imageWidth <= 0 || displayWidth <= 0) return 1;
  return Math.max(1, imageWidth / displayWidth);
}
