import { Injectable, NotFoundException } from '@nestjs/common';
import { type CriteriaEngineInput, type CriteriaSnapshot, type TestProfile } from '@furnace/contracts';
import { CriteriaEngine, heatingCurve } from '@furnace/criteria';
import type { ObservationEntity, ThermoExclusionEntity } from '@furnace/db';
import { validationException } from '../core/errors';
import { keysetPages } from '../core/keyset-pages';
import { profileOf, toExclusion, toObservation, withoutClassification } from '../criteria/criteria-inputs';
import {
  type ChannelLabel,
  type ExportCell,
  exportCells,
  type ExportLayout,
  type ExportMeta,
  warsawWallClock,
} from './export-format';
import { type ExportFrameRow, ExportRepository } from './export.repository';
import { HistoryRepository } from './history.repository';
import { RealArrayReader } from './real-array';
import { toCriteriaFrame } from './stored-frame';

/**
 * Frames read at a time (the next page is read while this one is written). Small: a page's rows then
 * die young in the garbage collector instead of being promoted, which is what grows a process's RSS
 * over a long export (measured in bench/exports.ts).
 */
const EXPORT_PAGE = 100;

interface ExportQuery {
  from?: number;
  to?: number;
}

/** What an export needs beside its rows: the layout, the metadata, and the research's configs and observations. */
export interface ExportContext {
  researchId: string;
  name: string;
  layout: ExportLayout;
  meta: ExportMeta;
  /** Per channel with a marker: each config's name and type for it. */
  markers: readonly { thermoId: number; name: string; type: string; config: string }[];
  exclusions: readonly ThermoExclusionEntity[];
  observations: readonly ObservationEntity[];
  profile: TestProfile;
  /** The engine the rows are pushed through: after the last row, its snapshot is the criteria of the export's range. */
  engine: CriteriaEngine;
  /** A client's export of a research whose classification staff do not show clients. */
  classificationWithheld: boolean;
  range: { from: number; to: number };
  ignitionAt: Date | null;
  /** Fires when the export's client has gone: the reads stop at the next page (see HeavyWork). */
  signal?: AbortSignal;
}

/**
 * The history exports a lab files (CSV and XLSX): each frame with its category max/mean, rises above
 * T0, the heating curve and d_e, all from the criteria engine the frames are pushed through (the same
 * numbers as the criteria view), read page by page so a long test never sits in memory.
 */
@Injectable()
export class ExportService {
  constructor(
    private readonly repository: ExportRepository,
    private readonly history: HistoryRepository,
  ) {}

  /**
   * `visibleObservationsOnly`: a client's export lists the observations visible to clients only; its criteria are
   * everyone's, computed from every observation (docs/behaviour.md: a client never gets a different result).
   * `signal`: the client went away; every read of frames (here for T0, then the rows) stops at its next page.
   */
  async prepare(
    researchId: string,
    query: ExportQuery,
    visibleObservationsOnly: boolean,
    signal?: AbortSignal,
    now = new Date(),
  ): Promise<ExportContext> {
    const research = await this.repository.research(researchId);
    if (!research) throw new NotFoundException('Research not found');
    if (query.from !== undefined && query.to !== undefined && query.to < query.from) {
      throw validationException([{ loc: ['query', 'to'], msg: 'to must not be before from', type: 'value_error' }]);
    }
    const range = { from: query.from ?? Number.NEGATIVE_INFINITY, to: query.to ?? Number.MAX_VALUE };
    const [markerRows, engineMarkers, exclusions, all, ignitionAt, faults] = await Promise.all([
      this.repository.markers(researchId),
      this.repository.criteriaMarkers(researchId),
      this.repository.exclusions(researchId),
      this.repository.observations(researchId, false),
      this.history.ignitionAt(researchId),
      this.history.faults(researchId, { from: Number.NEGATIVE_INFINITY, to: range.to }),
    ]);
    const channels = await this.history.maxChannels(researchId, {
      from: query.from ?? Number.NEGATIVE_INFINITY,
      to: range.to,
    });
    const observations = visibleObservationsOnly ? all.filter((o) => o.visibleToClients) : all;
    const profile = profileOf(research);

    const markers = markerRows.map((m) => ({
      thermoId: m.thermo_id,
      name: m.name,
      type: m.type_name,
      config: m.config,
    }));
    const labels = new Map<number, ChannelLabel>();
    for (const m of markers) {
      const label = labels.get(m.thermoId);
      if (label === undefined) labels.set(m.thermoId, { name: m.name, types: [m.type] });
      else if (!label.types.includes(m.type)) label.types.push(m.type);
    }
    const input: CriteriaEngineInput = {
      profile,
      markers: engineMarkers,
      exclusions: exclusions.map(toExclusion),
      observations: all.map(toObservation),
      t0_override: research.t0Override,
      ended: now.getTime() > research.endAt.getTime() || all.some((o) => o.kind === 'test_stopped'),
    };
    const engine = new CriteriaEngine(input);
    const t0 = await this.t0(researchId, new CriteriaEngine(input), signal);
    const nameOf = (id: number) => labels.get(id)?.name ?? null;
    return {
      researchId,
      name: research.name,
      layout: { channels, labels, categories: engine.frameValues().categories.map((c) => c.type_name) },
      meta: {
        research: { id: researchId, name: research.name },
        profile,
        ignitionAt,
        t0,
        excluded: exclusions.map((x) => ({
          thermoId: x.thermoId,
          name: nameOf(x.thermoId),
          fromTime: x.fromTime,
          reason: x.reason,
        })),
        failed: faults.map((f) => ({
          thermoId: f.thermo_id,
          name: nameOf(f.thermo_id),
          firstTime: f.first_time,
          lastTime: f.last_time,
          frames: f.frames,
        })),
      },
      markers,
      exclusions,
      observations,
      profile,
      engine,
      classificationWithheld: visibleObservationsOnly && !research.classificationToClients,
      range,
      ignitionAt,
      signal,
    };
  }

  /**
   * The rows of the export's range, a page at a time. Every frame from the start is pushed through the
   * engine (d_e counts from ignition, exclusions from their time), only those in the range are written.
   * Each observation is on the first frame at or after its time.
   */
  async *rows(ctx: ExportContext): AsyncGenerator<ExportCell[][]> {
    const { engine, layout, range, ignitionAt, researchId } = ctx;
    const t0 = ctx.meta.t0?.value ?? null;
    const curve = ctx.profile.heating_curve;
    const reader = new RealArrayReader();
    const scratch: number[] = [];
    const observations = ctx.observations.filter((o) => o.time >= range.from && o.time <= range.to);
    let next = 0;
    const observedUpTo = (time: number): string[] => {
      const kinds: string[] = [];
      while (next < observations.length && observations[next]!.time <= time) kinds.push(observations[next++]!.kind);
      return kinds;
    };
    const categories = layout.categories.map(() => ({ max: null as number | null, mean: null as number | null }));
    for await (const rows of this.pages(researchId, Number.NEGATIVE_INFINITY, range.to, ctx.signal)) {
      const out: ExportCell[][] = [];
      for (const row of rows) {
        const values = row.thermocouples === null ? null : reader.read(row.thermocouples);
        engine.push(toCriteriaFrame(row, values, scratch));
        if (row.time < range.from) continue;
        const current = engine.frameValues();
        current.categories.forEach((c, i) => Object.assign(categories[i]!, { max: c.max, mean: c.mean }));
        out.push(
          exportCells(
            {
              time: row.time,
              wallClock: warsawWallClock(ignitionAt ? new Date(ignitionAt.getTime() + row.time * 1000) : row.ts),
              radiance: row.radiance,
              pressure: row.pressure,
              pk: row.pk,
              thermocouples: values,
              categories,
              t0,
              curve: heatingCurve(curve, row.time),
              dE: current.d_e,
              faults: row.faults,
              observations: observedUpTo(row.time),
            },
            layout,
          ),
        );
      }
      if (out.length > 0) yield out;
    }
  }

  /** The criteria over the frames pushed so far (after `rows` is done: those of the export's range and before). */
  criteria(ctx: ExportContext): CriteriaSnapshot {
    const snapshot = ctx.engine.snapshot();
    return ctx.classificationWithheld ? withoutClassification(snapshot) : snapshot;
  }

  /** T0 as the criteria define it: from the minute before ignition up to the first frame after it with a reading. */
  private async t0(
    researchId: string,
    engine: CriteriaEngine,
    signal?: AbortSignal,
  ): Promise<{ value: number; source: string } | null> {
    const reader = new RealArrayReader();
    const scratch: number[] = [];
    for await (const rows of this.pages(researchId, -60, Number.MAX_VALUE, signal)) {
      for (const row of rows) {
        engine.push(toCriteriaFrame(row, row.thermocouples === null ? null : reader.read(row.thermocouples), scratch));
        if (engine.frameValues().t0_fixed) break;
      }
      if (engine.frameValues().t0_fixed) break;
    }
    const snapshot = engine.snapshot();
    return snapshot.t0 === null ? null : { value: snapshot.t0, source: snapshot.t0_source ?? 'auto' };
  }

  /** Pages of frames in time order (see keysetPages); once `signal` fires no further page is read. */
  private pages(researchId: string, from: number, to: number, signal?: AbortSignal): AsyncGenerator<ExportFrameRow[]> {
    const lower = Number.isFinite(from) ? from : -Number.MAX_VALUE;
    return keysetPages((after) => this.repository.frames(researchId, lower, to, after, EXPORT_PAGE), {
      size: EXPORT_PAGE,
      keyOf: (row) => row.time,
      signal,
    });
  }
}
