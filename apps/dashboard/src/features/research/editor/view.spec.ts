import { clampView, fitView, scaleLimits, toPhoto, zoomAt } from './view';

const PHOTO = { width: 4000, height: 2000 };
const VIEWPORT = { width: 800, height: 500 };

describe('zoom and pan', () => {
  it('fits the whole photo, centred', () => {
    expect(fitView(PHOTO, VIEWPORT)).toEqual({ scale: 0.2, x: 0, y: 50 });
  });

  it('zooms about the pointer: the photo pixel under it stays under it', () => {
    const fitted = fitView(PHOTO, VIEWPORT);
    const pointer = { x: 600, y: 250 };
    const zoomed = zoomAt(fitted, 2, pointer, PHOTO, VIEWPORT);
    expect(zoomed.scale).toBe(0.4);
    expect(toPhoto(zoomed, pointer)).toEqual(toPhoto(fitted, pointer));
  });

  it('zooms out no further than the fitted photo and in no further than 8 screen pixels a photo pixel', () => {
    const fitted = fitView(PHOTO, VIEWPORT);
    expect(zoomAt(fitted, 0.5, { x: 0, y: 0 }, PHOTO, VIEWPORT)).toEqual(fitted);
    expect(zoomAt(fitted, 1000, { x: 0, y: 0 }, PHOTO, VIEWPORT).scale).toBe(8);
    expect(scaleLimits({ width: 100, height: 50 }, VIEWPORT)).toEqual({ min: 8, max: 64 });
  });

  it('cannot be panned so far that an empty band shows', () => {
    const zoomed = { scale: 1, x: 0, y: 0 };
    expect(clampView({ ...zoomed, x: 300, y: -5000 }, PHOTO, VIEWPORT)).toEqual({ scale: 1, x: 0, y: -1500 });
    expect(clampView({ ...zoomed, x: -9000, y: 10 }, PHOTO, VIEWPORT)).toEqual({ scale: 1, x: -3200, y: 0 });
  });
});
