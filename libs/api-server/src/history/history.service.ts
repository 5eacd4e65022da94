import { Injectable, NotFoundException } from '@nestjs/common';
import { validationException } from '../core/errors';
import { keysetPages } from '../core/keyset-pages';
import type { HistoryDto, HistoryQueryDto } from './history.dto';
import { ROLLUP_WIDTHS } from '@furnace/db';
import { type Bucketing, type CategoryMember, Downsampler } from './downsample';
import { HistoryRepository, type Range } from './history.repository';
import { RealArrayReader } from './real-array';
import { ResearchEvents } from '../research/research-events';
import { SharedAnswers } from '../core/shared-answers';

/** Frames read at a time for the downsampling: the next page is read while this one is folded. */
const HISTORY_PAGE = 2_000;
/**
 * An answer is shared by the identical requests that arrive while it is made and this long after (ms),
 * while no newer frame is stored: a crowd opening one live view reads its history once, not once per
 * client (docs/performance.md, "Clients joining a long test").
 */
const SHARED_MS = 2_000;
/**
 * What every history request of a research reads whatever its range — the research, its markers and
 * exclusions, the channels with readings, the time of ignition — is kept this long (ms) for the same
 * newest frame, and forgotten at once on a change of the research: zooming through a finished test
 * reads them once (docs/performance.md, "History"). A frame stored late, older than the newest, is seen
 * by these within this time.
 */
const FACTS_MS = 60_000;

/** See FACTS_MS. */
interface ResearchFacts {
  members: CategoryMember[];
  channels: number[];
  ignitionAt: string | null;
}

/**
 * The history of a research: every series downsampled to at most N points, each point keeping its
 * bucket's min and max (a spike between two points survives, where averaging or LTTB can drop
 * it). The exports: export.service.ts.
 */
@Injectable()
export class HistoryService {
  private readonly shared = new SharedAnswers<HistoryDto>(SHARED_MS, 64);
  private readonly facts = new SharedAnswers<ResearchFacts>(FACTS_MS, 64);

  constructor(
    private readonly repository: HistoryRepository,
    events: ResearchEvents,
  ) {
    // A change (an exclusion, a config), through this instance or another, is seen by the next request at once.
    events.onChange((researchId) => this.forget(researchId));
  }

  /** Answers shared for the research are not given again (a change of what they are made of). */
  forget(researchId: string): void {
    this.shared.forget(researchId);
    this.facts.forget(researchId);
  }

  /** The history as `compute` makes it, shared by identical requests while no newer frame is stored (see SHARED_MS). */
  async history(researchId: string, query: HistoryQueryDto): Promise<HistoryDto> {
    checkRange(query.from, query.to);
    const lastTime = await this.repository.lastTime(researchId);
    const key = `${researchId}|${lastTime}|${query.from ?? ''}|${query.to ?? ''}|${query.points}|${(query.thermo_ids ?? []).join(',')}`;
    return this.shared.get(key, () => this.compute(researchId, query, lastTime));
  }

  /** `lastTime` was read before the series (the answer's key): they cover frames up to it, and the live tail continues after it. */
  private async compute(researchId: string, query: HistoryQueryDto, lastTime: number | null): Promise<HistoryDto> {
    const { members, channels, ignitionAt } = await this.facts.get(`${researchId}|${lastTime}`, () =>
      this.readFacts(researchId),
    );
    const from = query.from ?? 0;
    const empty: HistoryDto = {
      research_id: researchId,
      from,
      to: query.to ?? from,
      last_time: lastTime,
      frames: 0,
      bucket_seconds: 0,
      thermo_ids: [],
      time: [],
      series: [],
      faults: [],
      ignition_at: ignitionAt,
    };
    if (lastTime === null || from > lastTime) return empty;
    const range: Range = { from, to: Math.min(query.to ?? lastTime, lastTime) };
    const thermoIds = [...new Set(query.thermo_ids ?? [])].sort((a, b) => a - b);
    const faults = await this.repository.faults(researchId, range);
    const base = {
      research_id: researchId,
      from: range.from,
      to: range.to,
      last_time: lastTime,
      thermo_ids: channels,
      faults,
      ignition_at: ignitionAt,
    };
    const span = range.to - range.from;
    // The coarsest rollup level that still has at least `points` buckets in the range; none: a narrow zoom, read the frames.
    const level = [...ROLLUP_WIDTHS].reverse().find((w) => span / w >= query.points);
    if (level !== undefined)
      return { ...base, ...(await this.fromRollups(researchId, range, level, query.points, members, thermoIds)) };

    const frames = await this.repository.countFrames(researchId, range);
    if (frames === 0) return { ...empty, ...base, frames: 0 };
    const width = span / query.points;
    const bucketing: Bucketing =
      frames <= query.points || width <= 0
        ? { kind: 'raw' }
        : { kind: 'buckets', from: range.from, width, count: query.points };
    const downsampler = new Downsampler(bucketing, members, new Set(thermoIds));
    await this.fold(downsampler, researchId, range, () => true);
    const { time, series } = downsampler.finish();
    return { ...base, frames, bucket_seconds: bucketing.kind === 'raw' ? 0 : width, time, series };
  }

  /**
   * The history from the rollups of one level: level buckets grouped k at a time (groups aligned on
   * multiples of k × level, so a bucket is never split) into at most `points` points. Where the
   * range cuts a level bucket (its first and last), that bucket's frames in the range are read.
   */
  private async fromRollups(
    researchId: string,
    range: Range,
    level: number,
    points: number,
    members: CategoryMember[],
    thermoIds: number[],
  ): Promise<Pick<HistoryDto, 'frames' | 'bucket_seconds' | 'time' | 'series'>> {
    // An interval of length L meets at most ceil(L / G) + 1 groups of width G.
    const k = Math.max(1, Math.ceil((range.to - range.from) / (level * (points - 1))));
    const groupWidth = k * level;
    const downsampler = new Downsampler({ kind: 'aligned', width: groupWidth }, members, new Set(thermoIds));
    const lo = Math.ceil(range.from / level);
    const hi = Math.floor(range.to / level);
    let frames = 0;
    if (range.from < lo * level)
      frames += await this.fold(downsampler, researchId, { from: range.from, to: lo * level }, (t) => t < lo * level);
    const rollups = await this.repository.rollups(researchId, level, k, lo, hi, range.to, thermoIds);
    for (const rollup of rollups) {
      downsampler.addRollup(rollup);
      frames += rollup.frames;
    }
    // The last bucket is left out of the rollups read when it has frames after `to`.
    if (rollups[rollups.length - 1]?.lastBucket !== hi) {
      frames += await this.fold(
        downsampler,
        researchId,
        { from: Math.max(range.from, hi * level), to: range.to },
        () => true,
      );
    }
    const { time, series } = downsampler.finish();
    return { frames, bucket_seconds: groupWidth, time, series };
  }

  /** Adds the frames of `range` that `keep` accepts to the downsampling, in time order; returns how many. */
  private async fold(
    downsampler: Downsampler,
    researchId: string,
    range: Range,
    keep: (time: number) => boolean,
  ): Promise<number> {
    const reader = new RealArrayReader();
    let count = 0;
    const pages = keysetPages((after) => this.repository.frames(researchId, range, after, HISTORY_PAGE), {
      size: HISTORY_PAGE,
      keyOf: (row) => row.time,
    });
    for await (const rows of pages) {
      for (const row of rows) {
        if (!keep(row.time)) continue;
        downsampler.add({ ...row, thermocouples: row.thermocouples === null ? null : reader.read(row.thermocouples) });
        count++;
      }
    }
    return count;
  }

  /** See FACTS_MS; a research that does not exist is a 404 (and is not kept). */
  private async readFacts(researchId: string): Promise<ResearchFacts> {
    // Together (each is one short query).
    const [, members, channels, ignition] = await Promise.all([
      this.requireResearch(researchId),
      this.repository.categoryMembers(researchId),
      this.repository.channelsWithReadings(researchId, ROLLUP_WIDTHS[ROLLUP_WIDTHS.length - 1]),
      this.repository.ignitionAt(researchId),
    ]);
    return { members, channels, ignitionAt: ignition?.toISOString() ?? null };
  }

  private async requireResearch(researchId: string): Promise<{ name: string }> {
    const research = await this.repository.research(researchId);
    if (!research) throw new NotFoundException('Research not found');
    return research;
  }
}

function checkRange(from: number | undefined, to: number | undefined): void {
  if (from !== undefined && to !== undefined && to < from) {
    throw validationException([{ loc: ['query', 'to'], msg: 'to must not be before from', type: 'value_error' }]);
  }
}
