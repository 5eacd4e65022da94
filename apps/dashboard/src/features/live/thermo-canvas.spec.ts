import { stubCanvasContext } from './testing/canvas-stub';
import type { Marker } from '../../api/research-types';
import {
  applyFrame,
  createThermoScene,
  destroyScene,
  drawLabelBoxes,
  drawLabels,
  LABEL_FILL,
  LABEL_FILL_CRITICAL,
  labelContent,
  labelFontSize,
  resizeScene,
  setHiddenCategories,
  type ThermoScene,
  updateLabels,
} from './thermo-canvas';

let restore: () => void;
beforeAll(() => {
  restore = stubCanvasContext();
});
afterAll(() => restore());

function marker(thermo_id: number, type_name: string, overrides: Partial<Marker> = {}): Marker {
  return {
    id: `m${thermo_id}`,
    config_id: 'c1',
    thermo_id,
    name: `T${thermo_id}`,
    type_name: type_name as Marker['type_name'],
    color_hex: '#E53935',
    item_x: 10 * thermo_id,
    item_y: 20,
    item_size: 12,
    label_x: 10 * thermo_id,
    label_y: 40,
    label_width: 60,
    label_height: 24,
    ...overrides,
  };
}

const MARKERS = [marker(1, 'Tśr i Tmax'), marker(2, 'Tmax'), marker(3, 'T kątowników'), marker(4, 'Tmax ościeżnicy')];

function scene(markers = MARKERS): ThermoScene {
  return createThermoScene({
    container: document.createElement('div'),
    markers,
    imageWidth: 800,
    imageHeight: 500,
    width: 400,
    height: 400,
  });
}

const label = (s: ThermoScene, id: number) => {
  const found = s.labels.get(id)?.[0];
  if (!found) throw new Error(`no label for ${id}`);
  return { text: found.text, fill: found.fill, visible: found.visible };
};

describe('labelContent', () => {
  it("shows the name, or in 'tryb termopar' the reading with one decimal, '---' without one", () => {
    const m = marker(7, 'Tmax');
    expect(labelContent(m, 21.44, 'name')).toEqual({ text: 'T7', fill: LABEL_FILL });
    expect(labelContent(m, 21.44, 'temperature')).toEqual({ text: '21.4', fill: LABEL_FILL });
    expect(labelContent(m, null, 'temperature')).toEqual({ text: '---', fill: LABEL_FILL });
  });

  it("turns light red strictly above the type's critical max, in both modes; never for a type without one", () => {
    expect(labelContent({ name: 'T1', type_name: 'Tmax' }, 180, 'temperature').fill).toBe(LABEL_FILL);
    expect(labelContent({ name: 'T1', type_name: 'Tmax' }, 180.1, 'temperature').fill).toBe(LABEL_FILL_CRITICAL);
    expect(labelContent({ name: 'T1', type_name: 'Tmax' }, 180.1, 'name')).toEqual({
      text: 'T1',
      fill: LABEL_FILL_CRITICAL,
    });
    expect(labelContent({ name: 'F', type_name: 'Tmax ościeżnicy' }, 300, 'temperature').fill).toBe(LABEL_FILL);
    expect(labelContent({ name: 'F', type_name: 'Tmax ościeżnicy' }, 361, 'temperature').fill).toBe(
      LABEL_FILL_CRITICAL,
    );
    expect(labelContent({ name: 'K', type_name: 'T kątowników' }, 900, 'temperature').fill).toBe(LABEL_FILL);
  });
});

describe('labelFontSize', () => {
  it("fits a six-character reading ('1023.4') into the box, and follows the box's height", () => {
    expect(labelFontSize({ label_width: 64, label_height: 24 })).toBe(15);
    expect(labelFontSize({ label_width: 40, label_height: 24 })).toBe(9);
    expect(labelFontSize({ label_width: 64, label_height: 14 })).toBe(9);
    expect(labelFontSize({ label_width: 10, label_height: 5 })).toBe(6);
  });
});

describe('the scene', () => {
  it('keeps the photo and markers on one layer, the labels on another; neither listens for events', () => {
    const s = scene();
    expect(s.stage.getLayers()).toEqual([s.staticLayer, s.labelLayer]);
    expect(s.staticLayer.listening()).toBe(false);
    expect(s.labelLayer.listening()).toBe(false);
    expect(s.staticLayer.getChildren()).toHaveLength(1 + MARKERS.length + 1); // photo, squares, the label boxes
    expect(s.labelLayer.getChildren()).toEqual([s.labelShape]); // one shape draws every label
    expect([...s.labels.keys()]).toEqual([1, 2, 3, 4]);
    expect(label(s, 1)).toEqual({ text: 'T1', fill: LABEL_FILL, visible: true });
    destroyScene(s);
  });

  it('fits the photo into the space keeping its proportions', () => {
    const s = scene();
    expect(resizeScene(s, 400, 400)).toEqual({ width: 400, height: 250 });
    expect(s.stage.scaleX()).toBeCloseTo(0.5);
    expect(resizeScene(s, 1600, 250)).toEqual({ width: 400, height: 250 });
    destroyScene(s);
  });
});

describe('a DATA frame on the canvas', () => {
  it('sets the text and fill of the labels whose reading changed, and only those', () => {
    const s = scene();
    expect(updateLabels(s, [21.4, 22, null, 30], 'temperature')).toBe(4);
    expect(label(s, 1).text).toBe('21.4');
    expect(label(s, 2).text).toBe('22.0');
    expect(label(s, 3).text).toBe('---');

    // Only thermocouple 1 changed what it shows (22.04 still reads 22.0).
    expect(updateLabels(s, [21.5, 22.04, null, 30], 'temperature')).toBe(1);
    expect(label(s, 1).text).toBe('21.5');
    expect(label(s, 2).text).toBe('22.0');

    // Above its type's critical max: light red; back under: white again.
    expect(updateLabels(s, [181, 22.04, null, 30], 'temperature')).toBe(1);
    expect(label(s, 1)).toMatchObject({ text: '181.0', fill: LABEL_FILL_CRITICAL });
    updateLabels(s, [179, 22.04, null, 30], 'temperature');
    expect(label(s, 1)).toMatchObject({ text: '179.0', fill: LABEL_FILL });
    destroyScene(s);
  });

  it('a channel missing from a shorter frame shows ---', () => {
    const s = scene();
    updateLabels(s, [21, 22, 23, 24], 'temperature');
    updateLabels(s, [21, 22], 'temperature');
    expect(label(s, 3).text).toBe('---');
    expect(label(s, 4).text).toBe('---');
    destroyScene(s);
  });

  it('in name mode a frame changes fills only', () => {
    const s = scene();
    expect(updateLabels(s, [21, 22, 23, 24], 'name')).toBe(0);
    expect(updateLabels(s, [200, 22, 23, 24], 'name')).toBe(1);
    expect(label(s, 1)).toMatchObject({ text: 'T1', fill: LABEL_FILL_CRITICAL });
    destroyScene(s);
  });

  it('redraws the label layer only, and nothing when no label changed', () => {
    const s = scene();
    const labelDraw = jest.spyOn(s.labelLayer, 'batchDraw');
    const staticDraw = jest.spyOn(s.staticLayer, 'batchDraw');
    const stageDraw = jest.spyOn(s.stage, 'batchDraw');
    applyFrame(s, [21, 22, 23, 24], 'temperature');
    expect(labelDraw).toHaveBeenCalledTimes(1);
    applyFrame(s, [21, 22, 23, 24], 'temperature');
    expect(labelDraw).toHaveBeenCalledTimes(1);
    expect(staticDraw).not.toHaveBeenCalled();
    expect(stageDraw).not.toHaveBeenCalled();
    destroyScene(s);
  });

  it('reports each update to the benchmark probe when one is installed', () => {
    const s = scene();
    globalThis.__furnaceCanvasBench = [];
    applyFrame(s, [21, 22, 23, 24], 'temperature');
    applyFrame(s, [22, 22, 23, 24], 'temperature');
    expect(globalThis.__furnaceCanvasBench).toHaveLength(2);
    globalThis.__furnaceCanvasBench = undefined;
    destroyScene(s);
  });

  it('updates every label of a thermocouple drawn twice', () => {
    const s = scene([marker(5, 'Tmax'), marker(5, 'Tmax', { label_x: 300 })]);
    updateLabels(s, [0, 0, 0, 0, 55.55], 'temperature');
    expect(s.labels.get(5)?.map((l) => l.text)).toEqual(['55.5', '55.5']);
    destroyScene(s);
  });
});

describe('drawLabels', () => {
  function recordingContext() {
    const calls: string[] = [];
    const ctx = new Proxy({} as Record<string, unknown>, {
      get: (target, key: string) =>
        key in target ? target[key] : (...args: unknown[]) => calls.push(`${key}(${args.join(',')})`),
      set: (target, key: string, value) => {
        target[key] = value;
        calls.push(`${key}=${String(value)}`);
        return true;
      },
    });
    return { ctx: ctx as unknown as CanvasRenderingContext2D, calls };
  }

  it('draws the boxes on the static layer in batches: one fill, one stroke per border colour', () => {
    const s = scene([
      marker(1, 'Tmax'),
      marker(2, 'Tmax'),
      marker(3, 'T', { color_hex: '#FB8C00' }),
      marker(4, 'Tmax'),
    ]);
    s.labels.get(4)![0]!.visible = false;
    const { ctx, calls } = recordingContext();
    drawLabelBoxes(ctx, [...s.labels.values()].flat(), 0.5);
    expect(calls.filter((c) => c === 'fill()')).toHaveLength(1);
    expect(calls.filter((c) => c === 'stroke()')).toHaveLength(2); // #E53935, #FB8C00
    expect(calls.filter((c) => c.startsWith('rect('))).toHaveLength(6); // 3 visible boxes, filled and framed
    expect(calls).toContain('lineWidth=3'); // 1.5 px on screen at half scale
    destroyScene(s);
  });

  it('a frame draws the texts with one font, and fills only the labels above their critical value', () => {
    const s = scene([
      marker(1, 'Tmax'),
      marker(2, 'Tmax'),
      marker(3, 'T', { color_hex: '#FB8C00' }),
      marker(4, 'Tmax'),
    ]);
    updateLabels(s, [200, 20, 20, 20], 'temperature');
    s.labels.get(4)![0]!.visible = false;
    const { ctx, calls } = recordingContext();
    drawLabels(ctx, [...s.labels.values()].flat(), 0.5);
    expect(calls.filter((c) => c === 'fill()')).toHaveLength(1); // light red, T1 only
    expect(calls.filter((c) => c.startsWith('rect('))).toHaveLength(2); // T1 filled and re-framed
    expect(calls).toContain(`fillStyle=${LABEL_FILL_CRITICAL}`);
    expect(calls.filter((c) => c.startsWith('font='))).toHaveLength(1);
    expect(calls.filter((c) => c.startsWith('fillText(')).map((c) => c.split(',')[0])).toEqual([
      'fillText(200.0',
      'fillText(20.0',
      'fillText(20.0',
    ]);

    const quiet = recordingContext();
    updateLabels(s, [20, 20, 20, 20], 'temperature');
    drawLabels(quiet.ctx, [...s.labels.values()].flat(), 0.5);
    expect(quiet.calls.filter((c) => c === 'fill()' || c === 'stroke()')).toHaveLength(0);
    destroyScene(s);
  });
});

describe('category visibility', () => {
  it("hides and shows a category's markers and labels", () => {
    const s = scene();
    const staticDraw = jest.spyOn(s.staticLayer, 'batchDraw');
    setHiddenCategories(s, new Set(['Tmax']));
    expect(label(s, 2).visible).toBe(false);
    expect(s.markersByType.get('Tmax')?.[0]?.visible()).toBe(false);
    expect(label(s, 1).visible).toBe(true);
    expect(staticDraw).toHaveBeenCalledTimes(1);
    setHiddenCategories(s, new Set(['Tmax']));
    expect(staticDraw).toHaveBeenCalledTimes(1);
    setHiddenCategories(s, new Set());
    expect(label(s, 2).visible).toBe(true);
    expect(s.markersByType.get('Tmax')?.[0]?.visible()).toBe(true);
    destroyScene(s);
  });
});
