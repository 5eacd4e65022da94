import type { Point, Size } from './markers';

/*
 * Zoom and pan of the editor's stage: `scale` screen pixels per photo pixel, (x, y) where the photo's
 * top-left corner is on the stage. Plain functions of numbers.
 */

export interface View {
  readonly scale: number;
  readonly x: number;
  readonly y: number;
}

/** How far the editor zooms in: 8 screen pixels per photo pixel, or 8× the fitted size if that is more. */
const MAX_ZOOM = 8;

/** The whole photo in the viewport, centred. */
export function fitView(image: Size, viewport: Size): View {
  const scale = Math.min(viewport.width / image.width, viewport.height / image.height);
  return { scale, x: (viewport.width - image.width * scale) / 2, y: (viewport.height - image.height * scale) / 2 };
}

/** The scales a view may take: from the fitted photo to MAX_ZOOM. */
export function scaleLimits(image: Size, viewport: Size): { min: number; max: number } {
  const min = fitView(image, viewport).scale;
  return { min, max: Math.max(MAX_ZOOM, min * MAX_ZOOM) };
}

/**
 * Keeps the photo where it can be seen: a photo smaller than the viewport stays centred on that axis,
 * a larger one cannot be dragged so far that an empty band shows.
 */
export function clampView(view: View, image: Size, viewport: Size): View {
  const axis = (pos: number, length: number, room: number) =>
    length <= room ? (room - length) / 2 : Math.min(0, Math.max(room - length, pos));
  return {
    scale: view.scale,
    x: axis(view.x, image.width * view.scale, viewport.width),
    y: axis(view.y, image.height * view.scale, viewport.height),
  };
}

/** Zoomed by `factor` about a point of the viewport (the pointer, or the centre): that point stays over the same photo pixel. */
export function zoomAt(view: View, factor: number, about: Point, image: Size, viewport: Size): View {
  const { min, max } = scaleLimits(image, viewport);
  const scale = Math.min(max, Math.max(min, view.scale * factor));
  const ratio = scale / view.scale;
  return clampView(
    { scale, x: about.x - (about.x - view.x) * ratio, y: about.y - (about.y - view.y) * ratio },
    image,
    viewport,
  );
}

/** The photo pixel under a point of the viewport. */
export function toPhoto(view: View, point: Point): Point {
  return { x: (point.x - view.x) / view.scale, y: (point.y - view.y) / view.scale };
}
