import { measurementType, type MeasurementTypeName, MEASUREMENT_TYPE_NAMES } from '@furnace/contracts';
import {
  ActionIcon,
  Alert,
  Box,
  Button,
  Flex,
  Group,
  List,
  Loader,
  NativeSelect,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import {
  IconAlertTriangle,
  IconArrowBackUp,
  IconArrowForwardUp,
  IconDeviceFloppy,
  IconDownload,
  IconMaximize,
  IconX,
  IconZoomIn,
  IconZoomOut,
} from '@tabler/icons-react';
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors';
import { confirmDestructive } from '../../../components/confirm';
import { saveBlob } from '../../stream/history-api';
import { EditorStage } from './EditorStage';
import { commit, type History, redo, startHistory, undo } from './history';
import { MarkerTable, typeOptions } from './MarkerTable';
import {
  cleanName,
  configFile,
  duplicateIds,
  type EditorMarker,
  moveMarker,
  overlappingLabels,
  placeMarker,
  resizeMarker,
  retypeMarker,
  type Size,
} from './markers';
import { fitView, type View, zoomAt } from './view';

export interface ThermoEditorProps {
  /** The specimen photo. */
  photo: Blob;
  photoName: string;
  /** The photo's size in pixels when known (a stored config's); otherwise the decoded photo's. */
  size?: Size;
  initial: readonly EditorMarker[];
  /** The config file's name when saved or downloaded. */
  filename: string;
  /** Stores the config file; rejects with the server's answer. */
  onSave: (file: File) => Promise<void>;
  onClose: () => void;
}

/** The decoded photo (null until it loads). */
function usePhoto(photo: Blob): HTMLImageElement | null {
  const [image, setImage] = useState<HTMLImageElement | null>(null);
  useEffect(() => {
    const url = URL.createObjectURL(photo);
    const element = new window.Image();
    let live = true;
    element.onload = () => {
      if (live) setImage(element);
    };
    element.src = url;
    return () => {
      live = false;
      element.onload = null;
      URL.revokeObjectURL(url);
      setImage(null);
    };
  }, [photo]);
  return image;
}

/** What a refused save says: each message, and the markers its lines name (line 1 is the header). */
function refusal(
  error: unknown,
  markers: readonly EditorMarker[],
  fallback: string,
): { messages: string[]; keys: Set<string> } {
  const detail =
    error instanceof ApiError && typeof error.body === 'object' && error.body !== null
      ? (error.body as { detail?: unknown }).detail
      : undefined;
  if (typeof detail === 'string') return { messages: [detail], keys: new Set() };
  if (!Array.isArray(detail)) return { messages: [fallback], keys: new Set() };
  const keys = new Set<string>();
  const messages = detail.map((item: { loc?: unknown[]; msg?: unknown }) => {
    const line = item.loc?.[2];
    const marker = typeof line === 'number' ? markers[line - 2] : undefined;
    if (marker) keys.add(marker.key);
    return typeof item.msg === 'string' ? item.msg : fallback;
  });
  return { messages, keys };
}

const ARROWS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

/**
 * The thermocouple editor (docs/behaviour.md §4.8): the photo on a canvas where markers are placed,
 * dragged, nudged and zoomed, beside a table of the same markers; undo/redo; warnings for overlapping
 * labels; save (the config file, through the server's parser) and download of the same file.
 */
export function ThermoEditor({
  photo,
  photoName,
  size: knownSize,
  initial,
  filename,
  onSave,
  onClose,
}: ThermoEditorProps) {
  const { t, i18n } = useTranslation('editor');
  const image = usePhoto(photo);
  const size = knownSize ?? (image ? { width: image.naturalWidth, height: image.naturalHeight } : null);
  const [history, setHistory] = useState<History<readonly EditorMarker[]>>(() => startHistory(initial));
  const [saved, setSaved] = useState<readonly EditorMarker[]>(() => history.present);
  const [dragged, setDragged] = useState<EditorMarker | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [newType, setNewType] = useState<MeasurementTypeName>(MEASUREMENT_TYPE_NAMES[0]);
  const [errors, setErrors] = useState<{ messages: string[]; keys: Set<string> } | null>(null);
  const [saving, setSaving] = useState(false);
  const { ref: box, width: boxWidth } = useElementSize();
  const canvas = useRef<HTMLDivElement>(null);

  const markers = useMemo(
    () => (dragged ? history.present.map((m) => (m.key === dragged.key ? dragged : m)) : history.present),
    [history.present, dragged],
  );
  const overlaps = useMemo(() => overlappingLabels(markers), [markers]);
  const overlapping = useMemo(() => new Set(overlaps.flatMap(([a, b]) => [a.key, b.key])), [overlaps]);
  const duplicates = useMemo(() => duplicateIds(markers), [markers]);
  const dirty = history.present !== saved;

  const viewport = useMemo<Size | null>(() => {
    if (!size || boxWidth <= 0) return null;
    const height = Math.round(
      Math.max(260, Math.min(window.innerHeight * 0.68, (boxWidth * size.height) / size.width)),
    );
    return { width: Math.floor(boxWidth), height };
  }, [size?.width, size?.height, boxWidth]);
  const [view, setView] = useState<View | null>(null);
  useEffect(() => {
    if (size && viewport) setView(fitView(size, viewport));
    // Refit only when the viewport changes (size changes only with it).
  }, [viewport]);

  const change = (next: readonly EditorMarker[]) => {
    setHistory((h) => commit(h, next));
    setErrors(null);
  };
  const update = (key: string, edit: (m: EditorMarker) => EditorMarker) => {
    if (history.present.some((m) => m.key === key)) change(history.present.map((m) => (m.key === key ? edit(m) : m)));
  };
  const remove = (key: string) => {
    change(history.present.filter((m) => m.key !== key));
    if (selected === key) setSelected(null);
  };
  const doUndo = () => setHistory(undo);
  const doRedo = () => setHistory(redo);
  const zoom = (factor: number) => {
    if (size && viewport && view)
      setView(zoomAt(view, factor, { x: viewport.width / 2, y: viewport.height / 2 }, size, viewport));
  };

  const save = async () => {
    setSaving(true);
    setErrors(null);
    const state = history.present;
    try {
      await onSave(configFile(state, filename));
      setSaved(state);
    } catch (error) {
      setErrors(refusal(error, state, t('saveError')));
    } finally {
      setSaving(false);
    }
  };
  const download = () => saveBlob(configFile(history.present, filename), filename);
  const close = () => {
    if (!dirty) return onClose();
    confirmDestructive({
      title: t('unsavedTitle'),
      text: t('unsavedText'),
      confirmLabel: t('discard'),
      cancelLabel: i18n.t('common.cancel'),
      onConfirm: onClose,
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if ((event.target as HTMLElement).closest('input, select, textarea')) return;
    const mod = event.ctrlKey || event.metaKey;
    const key = event.key.toLowerCase();
    if (mod && (key === 'z' || key === 'y')) {
      event.preventDefault();
      if (key === 'y' || event.shiftKey) doRedo();
      else doUndo();
      return;
    }
    if (!selected || !size) return;
    const arrow = ARROWS[event.key];
    if (arrow) {
      event.preventDefault();
      const step = event.shiftKey ? 10 : 1;
      update(selected, (m) => moveMarker(m, arrow[0] * step, arrow[1] * step, size));
    } else if (event.key === 'Delete') {
      event.preventDefault();
      remove(selected);
    }
  };

  const button = (label: string, icon: React.ReactNode, onClick: () => void, disabled = false) => (
    <Tooltip label={label}>
      <ActionIcon variant="default" size="lg" aria-label={label} onClick={onClick} disabled={disabled}>
        {icon}
      </ActionIcon>
    </Tooltip>
  );

  return (
    <Stack gap="sm" onKeyDown={onKeyDown} data-testid="thermo-editor">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={2} fz="lg">
          {t('titleOf', { name: photoName })}
        </Title>
        <Group gap="xs">
          <Button
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
            onClick={download}
            disabled={markers.length === 0}
          >
            {t('download')}
          </Button>
          <Button
            leftSection={<IconDeviceFloppy size={16} aria-hidden />}
            onClick={() => void save()}
            loading={saving}
            disabled={markers.length === 0 || !size}
          >
            {t('save')}
          </Button>
          <Button variant="subtle" color="gray" leftSection={<IconX size={16} aria-hidden />} onClick={close}>
            {t('close')}
          </Button>
        </Group>
      </Group>
      <Text size="sm" c="dimmed" id="thermo-editor-hint">
        {t('hint')}
      </Text>
      <Group gap="xs" wrap="wrap">
        <NativeSelect
          aria-label={t('newType')}
          leftSection={
            <span
              aria-hidden
              style={{ width: 12, height: 12, borderRadius: 2, background: measurementType(newType).color }}
            />
          }
          data={typeOptions(i18n.language)}
          value={newType}
          onChange={(event) => setNewType(event.currentTarget.value as MeasurementTypeName)}
          w={380}
        />
        {button(t('undo'), <IconArrowBackUp size={18} aria-hidden />, doUndo, history.past.length === 0)}
        {button(t('redo'), <IconArrowForwardUp size={18} aria-hidden />, doRedo, history.future.length === 0)}
        {button(t('zoomOut'), <IconZoomOut size={18} aria-hidden />, () => zoom(1 / 1.5))}
        {button(
          t('zoomFit'),
          <IconMaximize size={18} aria-hidden />,
          () => size && viewport && setView(fitView(size, viewport)),
        )}
        {button(t('zoomIn'), <IconZoomIn size={18} aria-hidden />, () => zoom(1.5))}
        <Text size="sm" c="dimmed" data-testid="editor-zoom">
          {t('zoom', { percent: view ? Math.round(view.scale * 100) : 100 })}
        </Text>
        <Text size="sm" c="dimmed" ml="auto">
          {t('count', { count: markers.length })}
        </Text>
      </Group>
      {errors ? (
        <Alert color="red" icon={<IconAlertTriangle aria-hidden />} title={t('refused')} data-testid="editor-errors">
          <List size="sm">
            {errors.messages.map((message, i) => (
              <List.Item key={i}>{message}</List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
      <Flex gap="md" direction={{ base: 'column', lg: 'row' }} align="flex-start">
        <Box ref={box} style={{ flex: '1 1 0', minWidth: 0, width: '100%' }}>
          <div
            ref={canvas}
            tabIndex={0}
            role="application"
            aria-label={t('canvas', { name: photoName, count: markers.length })}
            aria-describedby="thermo-editor-hint"
            data-testid="editor-canvas"
            data-scale={view?.scale}
            data-x={view?.x}
            data-y={view?.y}
            style={{
              background: '#2b2b2b',
              borderRadius: 8,
              overflow: 'hidden',
              cursor: 'crosshair',
              lineHeight: 0,
              outlineOffset: 2,
            }}
            onMouseDown={() => canvas.current?.focus()}
          >
            {image && size && viewport && view ? (
              <EditorStage
                image={image}
                size={size}
                viewport={viewport}
                view={view}
                markers={markers}
                selected={selected}
                overlapping={overlapping}
                onView={setView}
                onSelect={setSelected}
                onPlace={(at) => {
                  const placed = placeMarker(history.present, at, newType, size);
                  change([...history.present, placed]);
                  setSelected(placed.key);
                }}
                onMove={(moved, done) => {
                  if (!done) return setDragged(moved);
                  setDragged(null);
                  update(moved.key, () => moved);
                }}
              />
            ) : (
              <Group justify="center" h={260}>
                <Loader color="white" size="sm" aria-label={t('loading')} />
              </Group>
            )}
          </div>
        </Box>
        {/* A fixed width: a warning appearing mid-drag must not resize the canvas under the pointer. */}
        <Stack gap="xs" w={{ base: '100%', lg: 600 }} style={{ flex: 'none', minWidth: 0 }}>
          <MarkerTable
            markers={markers}
            selected={selected}
            flagged={errors?.keys ?? new Set()}
            onSelect={(key) => {
              setSelected(key);
              canvas.current?.focus();
            }}
            onNumber={(key, thermoId) => update(key, (m) => ({ ...m, thermo_id: thermoId }))}
            onName={(key, name) => update(key, (m) => ({ ...m, name: cleanName(name) || m.name }))}
            onType={(key, type) => update(key, (m) => retypeMarker(m, type))}
            onSize={(key, itemSize) => size && update(key, (m) => resizeMarker(m, itemSize, size))}
            onZone={(key, zone) => update(key, (m) => ({ ...m, zone }))}
            onRemove={remove}
          />
          {overlaps.length > 0 || duplicates.length > 0 ? (
            <Alert
              color="yellow"
              icon={<IconAlertTriangle aria-hidden />}
              title={t('warnings')}
              data-testid="editor-warnings"
            >
              <List size="sm">
                {overlaps.map(([a, b]) => (
                  <List.Item key={`${a.key}-${b.key}`}>{t('overlap', { a: a.name, b: b.name })}</List.Item>
                ))}
                {duplicates.map((id) => (
                  <List.Item key={`id-${id}`}>{t('duplicate', { id })}</List.Item>
                ))}
              </List>
            </Alert>
          ) : null}
        </Stack>
      </Flex>
    </Stack>
  );
}
