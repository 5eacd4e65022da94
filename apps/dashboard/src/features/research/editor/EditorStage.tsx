import 'konva/lib/shapes/Image';
import 'konva/lib/shapes/Rect';
import 'konva/lib/shapes/Text';
import type { KonvaEventObject } from 'konva/lib/Node';
import type { Stage as KonvaStage } from 'konva/lib/Stage';
import { useRef } from 'react';
import { Group, Image as KonvaImage, Layer, Rect, Stage, Text } from 'react-konva/lib/ReactKonvaCore';
import { type EditorMarker, moveLabel, moveMarker, type Point, type Size } from './markers';
import { clampView, type View, zoomAt } from './view';

/*
 * The editor's interactive canvas (react-konva): the photo, each marker's square and label box. A click
 * on the photo places a marker, a square drags with its label, a label drags alone, the background drags
 * the view, the wheel zooms about the pointer. All rules are the plain functions of markers.ts and
 * view.ts; this draws their results and reports what the pointer did.
 */

const LABEL_FILL = 'rgba(255, 255, 255, 0.92)';
/** A label box overlapping another (a warning, docs/behaviour.md §4.8). */
const OVERLAP_FILL = '#ffcdd2';
const OVERLAP_STROKE = '#c62828';
const SELECTED_STROKE = '#fdd835';
const WHEEL_STEP = 1.15;

export interface EditorStageProps {
  image: HTMLImageElement;
  size: Size;
  viewport: Size;
  view: View;
  markers: readonly EditorMarker[];
  selected: string | null;
  /** Keys of the markers whose label overlaps another's. */
  overlapping: ReadonlySet<string>;
  onView: (view: View) => void;
  onPlace: (at: Point) => void;
  onSelect: (key: string) => void;
  /** A marker while it is dragged (`done` false) and where the drag left it (`done` true). */
  onMove: (marker: EditorMarker, done: boolean) => void;
}

const labelFont = (m: EditorMarker) => Math.max(6, Math.round(Math.min(m.label_height * 0.6, m.label_width / 4)));

export function EditorStage({
  image,
  size,
  viewport,
  view,
  markers,
  selected,
  overlapping,
  onView,
  onPlace,
  onSelect,
  onMove,
}: EditorStageProps) {
  // The marker as it was when its drag started: every step of the drag is measured from it.
  const dragStart = useRef<EditorMarker | null>(null);

  const startDrag = (marker: EditorMarker) => {
    dragStart.current = marker;
    onSelect(marker.key);
  };
  const drag = (event: KonvaEventObject<DragEvent>, part: 'square' | 'label', done: boolean) => {
    const start = dragStart.current;
    if (!start) return;
    const node = event.target;
    const round = done ? Math.round : (v: number) => v;
    const moved =
      part === 'square'
        ? moveMarker(start, round(node.x()) - start.item_x, round(node.y()) - start.item_y, size)
        : moveLabel(start, { x: round(node.x()), y: round(node.y()) }, size);
    // Where the rules stopped it (the photo's edge), not where the pointer is.
    node.position(part === 'square' ? { x: moved.item_x, y: moved.item_y } : { x: moved.label_x, y: moved.label_y });
    if (done) dragStart.current = null;
    onMove(moved, done);
  };

  const isStage = (event: KonvaEventObject<unknown>) => event.target === event.target.getStage();
  /** A click or tap on the photo itself (not on a marker, not beside the photo) places a marker there. */
  const place = (event: KonvaEventObject<unknown>) => {
    if (event.target.name() !== 'photo') return;
    const at = (event.target.getStage() as KonvaStage).getRelativePointerPosition();
    if (at) onPlace(at);
  };

  return (
    <Stage
      width={viewport.width}
      height={viewport.height}
      x={view.x}
      y={view.y}
      scaleX={view.scale}
      scaleY={view.scale}
      draggable
      dragBoundFunc={(pos) => {
        const clamped = clampView({ scale: view.scale, x: pos.x, y: pos.y }, size, viewport);
        return { x: clamped.x, y: clamped.y };
      }}
      onDragEnd={(event) => {
        if (isStage(event)) onView({ scale: view.scale, x: event.target.x(), y: event.target.y() });
      }}
      onWheel={(event) => {
        event.evt.preventDefault();
        const stage = event.target.getStage() as KonvaStage;
        const pointer = stage.getPointerPosition() ?? { x: viewport.width / 2, y: viewport.height / 2 };
        onView(zoomAt(view, event.evt.deltaY < 0 ? WHEEL_STEP : 1 / WHEEL_STEP, pointer, size, viewport));
      }}
      onClick={(event) => {
        if (event.evt.button === 0) place(event);
      }}
      onTap={place}
    >
      <Layer>
        <KonvaImage name="photo" image={image} x={0} y={0} width={size.width} height={size.height} />
        {markers.map((m) => {
          const isSelected = m.key === selected;
          const overlaps = overlapping.has(m.key);
          return (
            <Group key={m.key} name="marker" id={m.key}>
              <Group
                name="label"
                x={m.label_x}
                y={m.label_y}
                draggable
                onDragStart={() => startDrag(m)}
                onDragMove={(event) => drag(event, 'label', false)}
                onDragEnd={(event) => drag(event, 'label', true)}
                onMouseDown={() => onSelect(m.key)}
              >
                <Rect
                  width={m.label_width}
                  height={m.label_height}
                  fill={overlaps ? OVERLAP_FILL : LABEL_FILL}
                  stroke={overlaps ? OVERLAP_STROKE : isSelected ? SELECTED_STROKE : m.color_hex}
                  strokeWidth={isSelected || overlaps ? 3 : 1.5}
                  dash={overlaps ? [6, 3] : undefined}
                  strokeScaleEnabled={false}
                />
                <Text
                  text={m.name}
                  width={m.label_width}
                  height={m.label_height}
                  align="center"
                  verticalAlign="middle"
                  fontStyle="bold"
                  fontSize={labelFont(m)}
                  fill="#111111"
                  listening={false}
                />
              </Group>
              <Rect
                name="square"
                x={m.item_x}
                y={m.item_y}
                width={m.item_size}
                height={m.item_size}
                fill={m.color_hex}
                stroke={isSelected ? SELECTED_STROKE : '#ffffff'}
                strokeWidth={isSelected ? 3 : 1}
                strokeScaleEnabled={false}
                draggable
                onDragStart={() => startDrag(m)}
                onDragMove={(event) => drag(event, 'square', false)}
                onDragEnd={(event) => drag(event, 'square', true)}
                onMouseDown={() => onSelect(m.key)}
              />
            </Group>
          );
        })}
      </Layer>
    </Stage>
  );
}
