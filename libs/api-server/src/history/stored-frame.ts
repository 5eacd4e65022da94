import type { RealArrayReader } from './real-array';

/** A stored frame as read: the thermocouples in PostgreSQL's text form of a real[] (read with RealArrayReader). */
export interface StoredFrameRow {
  time: number;
  radiance: number | null;
  pressure: number | null;
  pk: number | null;
  thermocouples: string | null;
  faults: number[] | null;
}

/** A stored frame in the shape the DAQ sent it (and the live stream sends it): no thermocouples, no faults: the fields are absent. */
export interface StoredFrame {
  time: number;
  radiance: number | null;
  pressure: number | null;
  pk: number | null;
  thermocouples_out?: (number | null)[];
  faults?: number[];
}

export function toStoredFrame(row: StoredFrameRow, reader: RealArrayReader): StoredFrame {
  const frame: StoredFrame = { time: row.time, radiance: row.radiance, pressure: row.pressure, pk: row.pk };
  if (row.thermocouples !== null) frame.thermocouples_out = Array.from(reader.read(row.thermocouples), (v) => (Number.isNaN(v) ? null : v));
  if (row.faults !== null && row.faults.length > 0) frame.faults = row.faults;
  return frame;
}
