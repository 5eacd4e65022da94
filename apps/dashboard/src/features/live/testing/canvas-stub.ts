/*
 * jsdom has no 2D canvas. Konva draws through one, so the canvas tests give every <canvas> a context
 * that records nothing and measures text at 6 px a character: the scene's nodes (what these tests
 * assert) are Konva's real ones.
 */
export function stubCanvasContext(): () => void {
  const original = HTMLCanvasElement.prototype.getContext;
  const noop = () => undefined;
  HTMLCanvasElement.prototype.getContext = function getContext(this: HTMLCanvasElement) {
    const state: Record<string | symbol, unknown> = {
      canvas: this,
      measureText: (text: string) => ({
        width: text.length * 6,
        actualBoundingBoxAscent: 8,
        actualBoundingBoxDescent: 2,
      }),
      getImageData: () => ({ data: new Uint8ClampedArray(4) }),
      createLinearGradient: () => ({ addColorStop: noop }),
      createRadialGradient: () => ({ addColorStop: noop }),
      createPattern: () => ({}),
      getLineDash: () => [],
      getTransform: () => ({ a: 1, b: 0, c: 0, d: 1, e: 0, f: 0 }),
    };
    return new Proxy(state, {
      get: (target, key) => (key in target ? target[key] : noop),
      set: (target, key, value) => {
        target[key] = value;
        return true;
      },
    });
  } as unknown as typeof HTMLCanvasElement.prototype.getContext;
  return () => {
    HTMLCanvasElement.prototype.getContext = original;
  };
}

/**
 * For a test file that draws the live canvas with a photo: the canvas stub and object URLs for the
 * photo's blob, for every test of the file.
 */
export function stubCanvasForFile(): void {
  let restore: () => void = () => undefined;
  beforeAll(() => {
    restore = stubCanvasContext();
    URL.createObjectURL = () => 'blob:photo';
    URL.revokeObjectURL = () => undefined;
  });
  afterAll(() => restore());
}
