import {
  MAX_CHANNELS,
  MEASUREMENT_TYPES,
  type MeasurementTypeName,
  THERMO_ZONES,
  type ThermoZone,
  zoneApplies,
} from '@furnace/contracts';
import {
  ActionIcon,
  Group,
  NativeSelect,
  NumberInput,
  Table,
  Text,
  TextInput,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EditorMarker } from './markers';

/** The measurement types as the editor offers them: the exact name, then (`described`) what it measures. */
export function typeOptions(language: string, described = true) {
  return MEASUREMENT_TYPES.map((type) => ({
    value: type.name,
    label: described ? `${type.name} — ${language === 'en' ? type.description.en : type.description.pl}` : type.name,
  }));
}

export interface MarkerTableProps {
  markers: readonly EditorMarker[];
  selected: string | null;
  /** Markers named in the server's refusal. */
  flagged: ReadonlySet<string>;
  onSelect: (key: string) => void;
  onNumber: (key: string, thermoId: number) => void;
  onName: (key: string, name: string) => void;
  onType: (key: string, type: MeasurementTypeName) => void;
  onSize: (key: string, size: number) => void;
  /** The EN 1634-1 insulation class the thermocouple counts for; null for both. */
  onZone: (key: string, zone: ThermoZone | null) => void;
  onRemove: (key: string) => void;
}

/** A value typed into a cell, handed on when the cell is left (or Enter): one undo step per edit, not per key. */
function useDraft<T>(value: T): [T, (next: T) => void] {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  return [draft, setDraft];
}

const blurOnEnter = (event: React.KeyboardEvent<HTMLInputElement>) => {
  if (event.key === 'Enter') event.currentTarget.blur();
};

function NumberCell({
  label,
  value,
  min,
  max,
  onCommit,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  onCommit: (value: number) => void;
}) {
  const [draft, setDraft] = useDraft<string | number>(value);
  return (
    <NumberInput
      size="xs"
      w={50}
      hideControls
      aria-label={label}
      min={min}
      max={max}
      allowDecimal={false}
      value={draft}
      onChange={setDraft}
      onKeyDown={blurOnEnter}
      onBlur={() => {
        const n = Number(draft);
        if (draft !== '' && Number.isInteger(n) && n >= min && n <= max && n !== value) onCommit(n);
        else setDraft(value);
      }}
    />
  );
}

function NameCell({ label, value, onCommit }: { label: string; value: string; onCommit: (value: string) => void }) {
  const [draft, setDraft] = useDraft(value);
  return (
    <TextInput
      size="xs"
      w={80}
      aria-label={label}
      value={draft}
      onChange={(event) => setDraft(event.currentTarget.value)}
      onKeyDown={blurOnEnter}
      onBlur={() => {
        if (draft.trim() !== '' && draft !== value) onCommit(draft);
        else setDraft(value);
      }}
    />
  );
}

/**
 * The canvas's text alternative and its exact controls: one editable row per marker (number, name,
 * type, size, zone), its position, and removal. A row's number selects the marker on the canvas.
 * The zone is offered for the unexposed face's insulation types only (and kept in view on any marker
 * that has one, so nothing is saved that the table does not show).
 */
export function MarkerTable({
  markers,
  selected,
  flagged,
  onSelect,
  onNumber,
  onName,
  onType,
  onSize,
  onZone,
  onRemove,
}: MarkerTableProps) {
  const { t, i18n } = useTranslation('editor');
  const options = typeOptions(i18n.language, false);
  const zones = [
    { value: '', label: t('zone.none') },
    ...THERMO_ZONES.map((zone) => ({ value: zone, label: t(`zone.${zone}`) })),
  ];
  if (markers.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="editor-empty">
        {t('empty')}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={580} maxHeight="60vh">
      <Table striped highlightOnHover stickyHeader verticalSpacing={4} horizontalSpacing={6} fz="sm">
        <Table.Caption>{t('table')}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('column.number')}</Table.Th>
            <Table.Th>{t('column.name')}</Table.Th>
            <Table.Th>{t('column.type')}</Table.Th>
            <Table.Th>{t('column.size')}</Table.Th>
            <Table.Th title={t('zone.hint')}>{t('column.zone')}</Table.Th>
            <Table.Th>{t('column.position')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('column.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {markers.map((m) => {
            const isSelected = m.key === selected;
            return (
              <Table.Tr
                key={m.key}
                data-testid="editor-row"
                data-key={m.key}
                data-flagged={flagged.has(m.key) || undefined}
                aria-selected={isSelected}
                bg={
                  flagged.has(m.key)
                    ? 'var(--mantine-color-red-light)'
                    : isSelected
                      ? 'var(--mantine-color-yellow-light)'
                      : undefined
                }
              >
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <UnstyledButton
                      aria-label={t('field.select', { name: m.name })}
                      aria-pressed={isSelected}
                      onClick={() => onSelect(m.key)}
                      style={{
                        display: 'inline-flex',
                        padding: 4,
                        borderRadius: 4,
                        outline: isSelected ? '2px solid var(--mantine-color-yellow-6)' : undefined,
                      }}
                    >
                      <span
                        aria-hidden
                        style={{
                          width: 14,
                          height: 14,
                          borderRadius: 2,
                          background: m.color_hex,
                          display: 'inline-block',
                        }}
                      />
                    </UnstyledButton>
                    <NumberCell
                      label={t('field.number', { name: m.name })}
                      value={m.thermo_id}
                      min={1}
                      max={MAX_CHANNELS}
                      onCommit={(n) => onNumber(m.key, n)}
                    />
                  </Group>
                </Table.Td>
                <Table.Td>
                  <NameCell
                    label={t('field.name', { name: m.name })}
                    value={m.name}
                    onCommit={(name) => onName(m.key, name)}
                  />
                </Table.Td>
                <Table.Td>
                  <NativeSelect
                    size="xs"
                    w={124}
                    aria-label={t('field.type', { name: m.name })}
                    data={options}
                    value={m.type_name}
                    onChange={(event) => onType(m.key, event.currentTarget.value as MeasurementTypeName)}
                  />
                </Table.Td>
                <Table.Td>
                  <NumberCell
                    label={t('field.size', { name: m.name })}
                    value={m.item_size}
                    min={1}
                    max={10_000}
                    onCommit={(n) => onSize(m.key, n)}
                  />
                </Table.Td>
                <Table.Td>
                  {zoneApplies(m.type_name) || m.zone !== null ? (
                    <NativeSelect
                      size="xs"
                      w={56}
                      aria-label={t('field.zone', { name: m.name })}
                      title={t('zone.hint')}
                      data={zones}
                      value={m.zone ?? ''}
                      onChange={(event) => onZone(m.key, (event.currentTarget.value || null) as ThermoZone | null)}
                    />
                  ) : null}
                </Table.Td>
                <Table.Td>
                  <Text size="xs" ff="monospace" data-testid="editor-position" style={{ whiteSpace: 'nowrap' }}>
                    {m.item_x}, {m.item_y}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('field.remove', { name: m.name })}
                    onClick={() => onRemove(m.key)}
                  >
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
