import { ActionIcon, Box, Button, Divider, Group, Paper, Stack, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconTemperature } from '@tabler/icons-react';
import {
  type CriteriaSnapshot,
  type DaqPayload,
  formatElapsed,
  formatValue,
  MEASUREMENT_TYPES,
  type FrameSource,
} from '@furnace/contracts';
import { categoryStats } from '../../lib/category-stats';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Research, Marker } from '../../api/research-types';
import { Logo } from '../../components/Logo';
import { CategoryRises, CriteriaPanel } from '../criteria/CriteriaPanel';
import { isLanguage } from '../../i18n';
import type { Category } from './categories';
import { ConnectionIndicator } from './ConnectionIndicator';
import type { DisplayItem } from './display-items';
import { LanguageSelect } from './LanguageSelect';
import type { ConnectionStatus } from '../stream/live-socket';
import { useFrameValue } from '../stream/use-frame';

/** The measurement rows of docs/behaviour.md §2, each shown only when the research has its flag. */
const MEASUREMENTS = [
  { field: 'radiance', flag: 'is_radiance', label: 'view.radiance', unit: 'units.radiance' },
  { field: 'pressure', flag: 'is_pressure', label: 'view.pressure', unit: 'units.pressure' },
  { field: 'pk', flag: 'is_furnance', label: 'view.furnace', unit: 'units.temperature' },
] as const satisfies readonly { field: keyof DaqPayload; flag: keyof Research; label: string; unit: string }[];

export type MeasurementField = (typeof MEASUREMENTS)[number]['field'];

export function measurementsOf(research: Research) {
  return MEASUREMENTS.filter((m) => research[m.flag]);
}

/** Previous/next through photos then cameras, wrapping around (docs/behaviour.md §2). */
export function ViewCycler({
  items,
  current,
  onStep,
}: {
  items: readonly DisplayItem[];
  current: DisplayItem | undefined;
  onStep: (step: 1 | -1) => void;
}) {
  const { t } = useTranslation('live');
  const label = current
    ? t(current.kind === 'photo' ? 'view.photoOf' : 'view.cameraOf', { n: current.index + 1, count: current.count })
    : t('view.nothingToShow');
  const disabled = items.length < 2;
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs">
      <ActionIcon
        variant="default"
        size="lg"
        aria-label={t('view.previous')}
        onClick={() => onStep(-1)}
        disabled={disabled}
      >
        <IconChevronLeft size={20} aria-hidden />
      </ActionIcon>
      <Text size="sm" fw={600} ta="center" data-testid="view-position" aria-live="polite">
        {label}
      </Text>
      <ActionIcon variant="default" size="lg" aria-label={t('view.next')} onClick={() => onStep(1)} disabled={disabled}>
        <IconChevronRight size={20} aria-hidden />
      </ActionIcon>
    </Group>
  );
}

export function ThermoModeToggle({ on, onToggle, label }: { on: boolean; onToggle: () => void; label?: string }) {
  const { t } = useTranslation('live');
  return (
    <Button
      variant={on ? 'filled' : 'default'}
      aria-pressed={on}
      onClick={onToggle}
      leftSection={<IconTemperature size={18} aria-hidden />}
      fullWidth
      data-testid="thermo-mode"
    >
      {label ?? t('view.thermoMode')}
    </Button>
  );
}

/** Elapsed test time hh:mm:ss from the newest frame's `time`. */
export function ElapsedTime({ frames }: { frames: FrameSource }) {
  return <>{useFrameValue(frames, (frame) => formatElapsed(frame?.time))}</>;
}

/** One measured value of the newest frame, one decimal or '---'. */
export function FrameValue({ frames, field }: { frames: FrameSource; field: MeasurementField }) {
  return <>{useFrameValue(frames, (frame) => formatValue(frame?.[field]))}</>;
}

function ValueRow({
  label,
  value,
  unit,
  testId,
}: {
  label: string;
  value: React.ReactNode;
  unit?: string;
  testId: string;
}) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs" data-testid={testId}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={700} ff="monospace" style={{ whiteSpace: 'nowrap' }}>
        <span data-testid={`${testId}-value`}>{value}</span>
        {unit ? (
          <Text span size="sm" c="dimmed" ff="inherit" ml={4}>
            {unit}
          </Text>
        ) : null}
      </Text>
    </Group>
  );
}

interface FormattedStats {
  max: string;
  mean: string;
  exceededMax: boolean;
  exceededMean: boolean;
}

/**
 * The statistics of every category for the newest frame, formatted. Derived as one string so that
 * the category list re-renders only when a shown number changes.
 */
function useCategoryStats(frames: FrameSource, markers: readonly Marker[]): Map<string, FormattedStats> {
  const key = useFrameValue(frames, (frame) =>
    JSON.stringify(
      categoryStats(markers, frame?.thermocouples_out).map((s) => [
        s.type_name,
        formatValue(s.max),
        formatValue(s.mean),
        s.exceeded.max,
        s.exceeded.mean,
      ]),
    ),
  );
  return useMemo(() => {
    const rows = JSON.parse(key) as [string, string, string, boolean, boolean][];
    return new Map(
      rows.map(([name, max, mean, exceededMax, exceededMean]) => [name, { max, mean, exceededMax, exceededMean }]),
    );
  }, [key]);
}

const TYPES = new Map<string, (typeof MEASUREMENT_TYPES)[number]>(MEASUREMENT_TYPES.map((type) => [type.name, type]));

/**
 * A coloured toggle per category and, under it, its max and mean: with the criteria snapshot, as
 * rises against the profile's limits; without one yet, against the type's critical values.
 */
export function CategoryToggles({
  categories,
  markers,
  frames,
  hidden,
  onToggle,
  criteria = null,
}: {
  categories: readonly Category[];
  markers: readonly Marker[];
  frames: FrameSource;
  hidden: ReadonlySet<string>;
  onToggle: (name: string) => void;
  criteria?: CriteriaSnapshot | null;
}) {
  const { t, i18n } = useTranslation('live');
  const stats = useCategoryStats(frames, markers);
  const language = isLanguage(i18n.language) ? i18n.language : 'pl';
  if (categories.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('view.noMarkers')}
      </Text>
    );
  }
  return (
    <Stack gap="sm">
      {categories.map((category) => {
        const shown = !hidden.has(category.name);
        const type = TYPES.get(category.name);
        const critical = type?.critical;
        const s = stats.get(category.name);
        const view = criteria?.categories.find((c) => c.type_name === category.name);
        return (
          <Box key={category.name} data-testid="category" data-category={category.name}>
            <Button
              fullWidth
              justify="space-between"
              color={category.color}
              autoContrast
              variant={shown ? 'filled' : 'outline'}
              aria-pressed={shown}
              title={type?.description[language]}
              aria-label={t('view.showCategory', { name: category.name })}
              onClick={() => onToggle(category.name)}
              rightSection={
                <Box
                  w={12}
                  h={12}
                  aria-hidden
                  style={{ borderRadius: 3, background: shown ? '#fff' : category.color, opacity: shown ? 0.85 : 1 }}
                />
              }
              styles={shown ? undefined : { root: { color: 'var(--mantine-color-text)', borderColor: category.color } }}
            >
              {category.name}
            </Button>
            {criteria ? (
              view && (view.role.max || view.role.mean || view.role.frame) ? (
                <CategoryRises category={view} snapshot={criteria} />
              ) : null
            ) : critical?.max != null ? (
              <Stack gap={0} mt={4} px={4}>
                <StatLine
                  label={t('view.max')}
                  value={s?.max ?? '---'}
                  critical={formatValue(critical.max)}
                  exceeded={s?.exceededMax ?? false}
                  testId="category-max"
                />
                {critical.mean != null ? (
                  <StatLine
                    label={t('view.mean')}
                    value={s?.mean ?? '---'}
                    critical={formatValue(critical.mean)}
                    exceeded={s?.exceededMean ?? false}
                    testId="category-mean"
                  />
                ) : null}
              </Stack>
            ) : null}
          </Box>
        );
      })}
    </Stack>
  );
}

function StatLine({
  label,
  value,
  critical,
  exceeded,
  testId,
}: {
  label: string;
  value: string;
  critical: string;
  exceeded: boolean;
  testId: string;
}) {
  const { t } = useTranslation('live');
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text
        size="sm"
        ff="monospace"
        fw={600}
        c={exceeded ? 'red.7' : undefined}
        data-testid={testId}
        data-exceeded={exceeded}
      >
        {value} / {critical} {t('units.temperature')}
      </Text>
    </Group>
  );
}

export interface SidePanelProps {
  research: Research;
  items: readonly DisplayItem[];
  current: DisplayItem | undefined;
  onStep: (step: 1 | -1) => void;
  thermoMode: boolean;
  onThermoMode: () => void;
  frames: FrameSource;
  /** The live connection's state; absent: no indicator (a replay of stored frames). */
  status?: ConnectionStatus;
  categories: readonly Category[];
  markers: readonly Marker[];
  hidden: ReadonlySet<string>;
  onToggleCategory: (name: string) => void;
  /** The criteria so far: the server's, pushed on the live stream (a replay: its own engine's); null until the first. */
  criteria?: CriteriaSnapshot | null;
  /** Thermocouple names by thermo_id (suspect and excluded ones are named). */
  names?: ReadonlyMap<number, string>;
  /** The language select and the logo at the foot (default): the panel is a screen's own. */
  footer?: boolean;
}

const NO_NAMES: ReadonlyMap<number, string> = new Map();

/** The side panel of docs/behaviour.md §2. */
export function SidePanel(props: SidePanelProps) {
  const { t } = useTranslation('live');
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="md">
        <ViewCycler items={props.items} current={props.current} onStep={props.onStep} />
        <ThermoModeToggle on={props.thermoMode} onToggle={props.onThermoMode} />
        <Stack gap={6}>
          <ValueRow label={t('view.elapsed')} value={<ElapsedTime frames={props.frames} />} testId="elapsed" />
          {measurementsOf(props.research).map((m) => (
            <ValueRow
              key={m.field}
              label={t(m.label)}
              value={<FrameValue frames={props.frames} field={m.field} />}
              unit={t(m.unit)}
              testId={`measurement-${m.field}`}
            />
          ))}
        </Stack>
        <Divider />
        <CriteriaPanel
          snapshot={props.criteria ?? null}
          names={props.names ?? NO_NAMES}
          radiation={props.research.is_radiance}
        />
        <Divider />
        <Stack gap="sm" component="section" aria-labelledby="live-thermocouples">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text id="live-thermocouples" fw={700} size="sm" tt="none">
              {t('view.thermocouples')}
            </Text>
            {props.status === undefined ? null : <ConnectionIndicator status={props.status} />}
          </Group>
          <CategoryToggles
            categories={props.categories}
            markers={props.markers}
            frames={props.frames}
            hidden={props.hidden}
            onToggle={props.onToggleCategory}
            criteria={props.criteria ?? null}
          />
        </Stack>
        {props.footer === false ? null : (
          <>
            <Divider />
            <LanguageSelect />
            <Group justify="center" pt="xs">
              <Logo />
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}
