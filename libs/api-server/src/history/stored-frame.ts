import type { CriteriaFrame } from '@furnace/contracts';
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
  if (row.thermocouples !== null)
    frame.thermocouples_out = Array.from(reader.read(row.thermocouples), (v) => (Number.isNaN(v) ? null : v));
  if (row.faults !== null && row.faults.length > 0) frame.faults = row.faults;
  return frame;
}

/**
 * A stored frame as the criteria engine takes it, for a pass over a whole test (criteria, exports,
 * report). `values` are the row's thermocouples as read (NaN where a channel has no reading: the engine
 * counts only finite readings); they are copied into `into`, reused from frame to frame (the engine
 * keeps no reference to them), so no value is boxed and no array is made per frame.
 */
export function toCriteriaFrame(row: StoredFrameRow, values: Float64Array | null, into: number[]): CriteriaFrame {
  const frame: CriteriaFrame = { time: row.time, pk: row.pk, pressure: row.pressure, radiance: row.radiance };
  if (values !== null) {
    into.length = values.length;
    for (let i = 0; i < values.length; i++) into[i] = values[i]!;
    frame.thermocouples_out = into;
  }
  if (row.faults !== null && row.faults.length > 0) frame.faults = row.faults;
  return frame;
}
