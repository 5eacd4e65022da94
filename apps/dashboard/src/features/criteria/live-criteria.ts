import type { HistoryDto } from '@furnace/api-client';
import {
  type CriteriaFrame,
  type CriteriaSnapshot,
  type DaqPayload,
  type Observation,
  type TestProfile,
  type ThermoExclusion,
} from '@furnace/contracts';
import { CriteriaEngine } from '@furnace/criteria';

/** What the engine is built from, besides the frames. */
export interface CriteriaInputs {
  profile: TestProfile;
  markers: readonly { thermo_id: number; type_name: string }[];
  exclusions: readonly ThermoExclusion[];
  observations: readonly Observation[];
  t0_override: number | null;
  /**
   * T0 taken automatically by the server from the frames before ignition, which the history (from
   * time 0) does not return: given to the engine as its T0 and still reported as automatic.
   */
  auto_t0?: number | null;
}

/**
 * The history's points as engine frames: each point's mean per series (a raw frame when
 * bucket_seconds is 0). The thermocouples go back into `thermocouples_out` by thermo_id.
 */
export function historyToFrames(history: HistoryDto): CriteriaFrame[] {
  const thermo: { index: number; mean: (number | null)[] }[] = [];
  let pk: (number | null)[] | undefined;
  let pressure: (number | null)[] | undefined;
  let radiance: (number | null)[] | undefined;
  let channels = 0;
  for (const series of history.series) {
    if (series.kind === 'thermocouple' && series.thermo_id !== undefined) {
      thermo.push({ index: series.thermo_id - 1, mean: series.mean });
      channels = Math.max(channels, series.thermo_id);
    } else if (series.kind === 'pk') pk = series.mean;
    else if (series.kind === 'pressure') pressure = series.mean;
    else if (series.kind === 'radiance') radiance = series.mean;
  }
  const faults = history.faults ?? [];
  return history.time.map((time, i): CriteriaFrame => {
    const frame: CriteriaFrame = { time };
    // A channel the ingest flagged out of range within this point's span.
    const flagged = faults.filter((f) => time >= f.first_time && time <= f.last_time).map((f) => f.thermo_id);
    if (flagged.length > 0) frame.faults = flagged;
    if (pk) frame.pk = pk[i] ?? null;
    if (pressure) frame.pressure = pressure[i] ?? null;
    if (radiance) frame.radiance = radiance[i] ?? null;
    if (channels > 0) {
      const out: (number | null)[] = new Array<number | null>(channels).fill(null);
      for (const t of thermo) out[t.index] = t.mean[i] ?? null;
      frame.thermocouples_out = out;
    }
    return frame;
  });
}

/**
 * The criteria engine of @furnace/contracts run in the browser over a history and the frames after
 * its last_time: the replay's (ReplayCriteria), which computes the criteria at any moment of a stored
 * test. The live view and the monitor run none: they show the server's, pushed on the live stream
 * (CRITERIA, docs/criteria-dashboard.md).
 */
export class LiveCriteria {
  private engine: CriteriaEngine;
  private last = Number.NEGATIVE_INFINITY;
  private loaded = false;

  constructor(private readonly inputs: CriteriaInputs) {
    this.engine = LiveCriteria.build(inputs);
  }

  private static build(inputs: CriteriaInputs): CriteriaEngine {
    return new CriteriaEngine({
      profile: inputs.profile,
      markers: inputs.markers,
      exclusions: inputs.exclusions,
      observations: inputs.observations,
      t0_override: inputs.t0_override ?? inputs.auto_t0 ?? null,
    });
  }

  /** The history (null: it could not be read) then the frames after its last_time (`pending`, in any order). */
  load(history: HistoryDto | null, pending: readonly DaqPayload[]): void {
    this.last = history?.last_time ?? Number.NEGATIVE_INFINITY;
    this.loaded = true;
    this.engine = LiveCriteria.build(this.inputs);
    for (const frame of history ? historyToFrames(history) : []) this.engine.push(frame);
    for (const frame of [...pending].sort((a, b) => a.time - b.time)) this.push(frame);
  }

  /** A frame: ignored before the history is loaded and when not newer than the last. */
  push(frame: DaqPayload): boolean {
    if (!this.loaded || frame.time <= this.last) return false;
    this.last = frame.time;
    this.engine.push(frame as CriteriaFrame);
    return true;
  }

  snapshot(): CriteriaSnapshot | null {
    if (!this.loaded) return null;
    const snapshot = this.engine.snapshot();
    const seeded =
      this.inputs.t0_override === null && this.inputs.auto_t0 !== null && this.inputs.auto_t0 !== undefined;
    return seeded && snapshot.t0_source === 'override' ? { ...snapshot, t0_source: 'auto' } : snapshot;
  }
}
