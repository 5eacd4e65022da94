import { Injectable, NotFoundException } from '@nestjs/common';
import { validationException } from '../core/errors';
import { CSV_BOM, csvDialect, csvFilename, csvHeader, csvRow } from './csv';
import type { HistoryCsvQueryDto, HistoryDto, HistoryQueryDto } from './history.dto';
import { type Bucketing, Downsampler } from './downsample';
import { HistoryRepository, type Range } from './history.repository';
import { RealArrayReader } from './real-array';

const CSV_PAGE = 5_000;
/** Frames read at a time for the downsampling: the next page is read while this one is folded. */
const HISTORY_PAGE = 2_000;

/**
 * The history of a research: every series downsampled to at most N points, each point keeping its
 * bucket's min and max (a spike between two points survives, where averaging or LTTB can drop
 * it), and the raw frames as CSV.
 */
@Injectable()
export class HistoryService {
  constructor(private readonly repository: HistoryRepository) {}

  async history(researchId: string, query: HistoryQueryDto): Promise<HistoryDto> {
    await this.requireResearch(researchId);
    checkRange(query.from, query.to);
    // Read first: the series cover frames up to it, and the live tail continues after it.
    const lastTime = await this.repository.lastTime(researchId);
    const from = query.from ?? 0;
    const ignitionAt = (await this.repository.ignitionAt(researchId))?.toISOString() ?? null;
    const empty: HistoryDto = {
      research_id: researchId, from, to: query.to ?? from, last_time: lastTime, frames: 0, bucket_seconds: 0, time: [], series: [], faults: [], ignition_at: ignitionAt,
    };
    if (lastTime === null || from > lastTime) return empty;
    const range: Range = { from, to: Math.min(query.to ?? lastTime, lastTime) };
    const frames = await this.repository.countFrames(researchId, range);
    if (frames === 0) return { ...empty, to: range.to };
    const faults = await this.repository.faults(researchId, range);

    const width = (range.to - range.from) / query.points;
    const bucketing: Bucketing = frames <= query.points || width <= 0 ? { kind: 'raw' } : { kind: 'buckets', from: range.from, width, count: query.points };
    const downsampler = new Downsampler(bucketing, await this.repository.categoryMembers(researchId));
    const reader = new RealArrayReader();
    let page = this.repository.frames(researchId, range, null, HISTORY_PAGE);
    for (;;) {
      const rows = await page;
      const more = rows.length === HISTORY_PAGE;
      if (more) page = this.repository.frames(researchId, range, rows[rows.length - 1]!.time, HISTORY_PAGE);
      for (const row of rows) downsampler.add({ ...row, thermocouples: row.thermocouples === null ? null : reader.read(row.thermocouples) });
      if (!more) break;
    }
    const { time, series } = downsampler.finish();
    return {
      research_id: researchId,
      from: range.from,
      to: range.to,
      last_time: lastTime,
      frames,
      bucket_seconds: bucketing.kind === 'raw' ? 0 : width,
      time,
      series,
      faults,
      ignition_at: ignitionAt,
    };
  }

  /**
   * The raw frames as CSV: a file name and the text, produced page by page (a long test never sits in
   * memory). Each observation is on the first frame at or after its time; a client's CSV has only
   * the observations visible to clients.
   */
  async csv(researchId: string, query: HistoryCsvQueryDto, visibleObservationsOnly = false): Promise<{ filename: { ascii: string; utf8: string }; body: AsyncIterable<string> }> {
    const research = await this.requireResearch(researchId);
    checkRange(query.from, query.to);
    const range: Range = { from: query.from ?? 0, to: query.to ?? Number.MAX_VALUE };
    const dialect = csvDialect(query.decimal);
    const channels = await this.repository.maxChannels(researchId, range);
    const observations = await this.repository.observations(researchId, range, visibleObservationsOnly);
    const repository = this.repository;
    let next = 0;
    const observedUpTo = (time: number): string[] => {
      const kinds: string[] = [];
      while (next < observations.length && observations[next]!.time <= time) kinds.push(observations[next++]!.kind);
      return kinds;
    };
    async function* body(): AsyncIterable<string> {
      yield CSV_BOM + csvHeader(channels, dialect);
      let after: number | null = null;
      for (;;) {
        const rows = await repository.page(researchId, range, after, CSV_PAGE);
        if (rows.length === 0) return;
        yield rows.map((row) => csvRow(row, channels, dialect, observedUpTo(row.time))).join('');
        after = rows[rows.length - 1]!.time;
        if (rows.length < CSV_PAGE) return;
      }
    }
    return { filename: csvFilename(researchId, research.name), body: body() };
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
