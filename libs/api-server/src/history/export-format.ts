import { formatTestTime, type TestProfile } from '@furnace/contracts';
import { fill, type Language, texts } from '@furnace/text';

/*
 * The columns of the history exports a lab files (CSV and XLSX write the same cells): time in seconds,
 * in decimal minutes, as hh:mm:ss since ignition and as Warsaw local date-time; the readings; each
 * thermocouple under its name, measurement type and unit; each category's max and mean and their
 * rises above T0; the standard heating curve; d_e; the flagged channels and the observations. Their
 * words are the catalogue's `export` namespace (@furnace/text), in the language the export is asked in.
 * What the numbers mean: docs/behaviour.md and libs/criteria/README.md.
 */

/** Where the wall clock of the exports is read: the lab's. */
export const EXPORT_TIME_ZONE = 'Europe/Warsaw';

/** A thermocouple channel as its configs name it; channels without a marker have none. */
export interface ChannelLabel {
  name: string;
  /** Measurement types the configs give it (one, unless two photos disagree). */
  types: string[];
}

export interface ExportLayout {
  /** Channels written: 1 … channels. */
  channels: number;
  labels: ReadonlyMap<number, ChannelLabel>;
  /** Measurement categories in the criteria engine's order. */
  categories: readonly string[];
}

/** Seconds since ignition: hh:mm:ss in a CSV, a duration cell in a workbook. */
export class Elapsed {
  constructor(readonly seconds: number) {}
}

export type ExportCell = number | string | Date | Elapsed | null;

/** One frame with what the criteria say of it. Thermocouple values: index i is channel i + 1, NaN where none. */
interface ExportFrame {
  time: number;
  /** Warsaw wall clock of the frame (see warsawWallClock); null when the frame has no timestamp. */
  wallClock: Date | null;
  radiance: number | null;
  pressure: number | null;
  pk: number | null;
  thermocouples: ArrayLike<number> | null;
  /** Per layout category. */
  categories: readonly { max: number | null; mean: number | null }[];
  t0: number | null;
  /** The standard heating curve at `time`, °C. */
  curve: number;
  /** d_e up to this frame, %. */
  dE: number | null;
  faults: readonly number[] | null;
  /** Kinds of the observations since the previous frame. */
  observations: readonly string[];
}

export function channelHeader(thermoId: number, label: ChannelLabel | undefined): string {
  if (label === undefined) return `thermo_${thermoId}_c`;
  return `${label.name} – ${label.types.join(' / ')} [°C]`;
}

export function exportHeader(layout: ExportLayout, lang: Language): string[] {
  const c = texts(lang).export.column;
  const columns = [
    c.seconds,
    c.minutes,
    c.sinceIgnition,
    fill(c.dateTime, { zone: EXPORT_TIME_ZONE }),
    c.radiance,
    c.pressure,
    c.furnace,
  ];
  for (let id = 1; id <= layout.channels; id++) columns.push(channelHeader(id, layout.labels.get(id)));
  for (const type of layout.categories) {
    columns.push(
      fill(c.categoryMax, { type }),
      fill(c.categoryMean, { type }),
      fill(c.categoryMaxRise, { type }),
      fill(c.categoryMeanRise, { type }),
    );
  }
  columns.push(c.curve, c.deviation, c.faults, c.observations);
  return columns;
}

export function exportCells(frame: ExportFrame, layout: ExportLayout): ExportCell[] {
  const cells: ExportCell[] = [
    frame.time,
    round(frame.time / 60, 4),
    new Elapsed(frame.time),
    frame.wallClock,
    finite(frame.radiance),
    finite(frame.pressure),
    finite(frame.pk),
  ];
  const values = frame.thermocouples;
  for (let i = 0; i < layout.channels; i++) cells.push(finite(values?.[i] ?? null));
  const t0 = frame.t0;
  for (let c = 0; c < layout.categories.length; c++) {
    const { max, mean } = frame.categories[c] ?? { max: null, mean: null };
    cells.push(
      round(max, 3),
      round(mean, 3),
      t0 === null || max === null ? null : round(max - t0, 3),
      t0 === null || mean === null ? null : round(mean - t0, 3),
    );
  }
  cells.push(round(frame.curve, 3), round(frame.dE, 3), frame.faults?.join(' ') ?? '', frame.observations.join(' '));
  return cells;
}

function finite(value: number | null): number | null {
  return value === null || !Number.isFinite(value) ? null : value;
}

function round(value: number | null, decimals: number): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}

/** "01:02:03" since ignition, "-00:00:30" before it (an ASCII minus, for programs reading the file); whole seconds (hours go past 24). */
export function hms(seconds: number): string {
  return formatTestTime(seconds, '-');
}

const WARSAW = new Intl.DateTimeFormat('en-US', {
  timeZone: EXPORT_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

/**
 * The Warsaw local date-time of an instant, as a Date whose UTC fields are that wall clock (what a
 * spreadsheet's date cell holds: it has no time zone). The offset is looked up once per hour of UTC.
 */
export function warsawWallClock(at: Date): Date {
  const ms = at.getTime();
  const hour = Math.floor(ms / 3_600_000);
  let offset = offsets.get(hour);
  if (offset === undefined) {
    const parts: Record<string, number> = {};
    for (const part of WARSAW.formatToParts(new Date(hour * 3_600_000)))
      if (part.type !== 'literal') parts[part.type] = Number(part.value);
    offset =
      Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!) - hour * 3_600_000;
    if (offsets.size > 10_000) offsets.clear();
    offsets.set(hour, offset);
  }
  return new Date(ms + offset);
}
const offsets = new Map<number, number>();

/** "2030-01-01 11:00:12": what Excel and LibreOffice read as a date-time in any locale. */
export function wallClockText(wallClock: Date): string {
  return wallClock.toISOString().slice(0, 19).replace('T', ' ');
}

/* ---------- The metadata: what a filed export says about its test ---------- */

export interface ExportMeta {
  research: { id: string; name: string };
  profile: TestProfile;
  ignitionAt: Date | null;
  t0: { value: number; source: string } | null;
  excluded: readonly { thermoId: number; name: string | null; fromTime: number; reason: string }[];
  failed: readonly { thermoId: number; name: string | null; firstTime: number; lastTime: number; frames: number }[];
}

/** The metadata block as rows of cells: label, then values. */
export function metaRows(meta: ExportMeta, lang: Language): ExportCell[][] {
  const m = texts(lang).export.meta;
  const names = texts(lang).criteria;
  const p = meta.profile;
  const standard = names.standard[p.standard] + (p.insulation ? ` (${p.insulation})` : '');
  const who = (id: number, name: string | null) =>
    name ? fill(m.namedChannel, { name, id }) : fill(m.channel, { id });
  const t0Source = (source: string) =>
    Object.hasOwn(m.t0Source, source) ? m.t0Source[source as keyof typeof m.t0Source] : source;
  const rows: ExportCell[][] = [
    [m.research, meta.research.name],
    [m.id, meta.research.id],
    [m.standard, standard],
    [m.heatingCurve, names.curve[p.heating_curve]],
    [m.basis, p.criteria_basis === 'rise' ? m.basisRise : m.basisAbsolute],
    [m.planned, p.planned_duration_min],
    [m.pressureTarget, p.pressure_target_pa],
    [m.pressureTolerance, p.pressure_tolerance_pa],
    [fill(m.ignition, { zone: EXPORT_TIME_ZONE }), meta.ignitionAt ? warsawWallClock(meta.ignitionAt) : null],
    [
      m.t0,
      meta.t0 === null ? null : Math.round(meta.t0.value * 1000) / 1000,
      meta.t0 === null ? '' : t0Source(meta.t0.source),
    ],
  ];
  for (const x of meta.excluded)
    rows.push([m.excluded, who(x.thermoId, x.name), fill(m.since, { time: hms(x.fromTime) }), x.reason]);
  for (const f of meta.failed) {
    rows.push([
      m.failed,
      who(f.thermoId, f.name),
      fill(m.outOfRange, { from: hms(f.firstTime), to: hms(f.lastTime) }),
      fill(m.frames, { frames: f.frames }),
    ]);
  }
  return rows;
}
