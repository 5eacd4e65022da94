import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { DAQ_BOUNDS } from '@furnace/contracts';
import { RealArrayReader } from '../history/real-array';
import { toStoredFrame } from '../history/stored-frame';
import { MAX_REPLAY_FRAMES, type ReplayFramesDto, type ReplayFramesQueryDto } from './replay.dto';
import { ReplayRepository } from './replay.repository';

/**
 * Stored frames of a research for the replay on the history page (docs/behaviour.md §10): full frames
 * (every channel) of one bounded window of the test, in the shape the live stream sends.
 */
@Injectable()
export class ReplayService {
  constructor(private readonly repository: ReplayRepository) {}

  async frames(researchId: string, query: ReplayFramesQueryDto): Promise<ReplayFramesDto> {
    if (query.from !== undefined && query.to !== undefined && query.to < query.from) {
      throw new BadRequestException(`to (${query.to}) must not be before from (${query.from})`);
    }
    const [exists, bounds] = await Promise.all([
      this.repository.exists(researchId),
      this.repository.bounds(researchId),
    ]);
    if (!exists) throw new NotFoundException('Research not found');
    const from = query.from ?? bounds.first ?? 0;
    const base = { research_id: researchId, first_time: bounds.first, last_time: bounds.last, from };
    if (bounds.last === null || from > bounds.last) return { ...base, to: query.to ?? from, frames: [] };

    // One more than the limit: a window that holds more is refused rather than cut short.
    const rows = await this.repository.frames(researchId, from, query.to ?? DAQ_BOUNDS.time.max, MAX_REPLAY_FRAMES + 1);
    if (rows.length > MAX_REPLAY_FRAMES) {
      if (query.to !== undefined) {
        throw new BadRequestException(
          `the window from ${from} to ${query.to} s holds more than ${MAX_REPLAY_FRAMES} frames, the most one request answers; ask for a shorter window`,
        );
      }
      rows.length = MAX_REPLAY_FRAMES;
    }
    const reader = new RealArrayReader();
    const frames = rows.map((row) => toStoredFrame(row, reader));
    // Without `to`: up to the last frame answered, or the end of the test when it was reached.
    const to =
      query.to ?? (rows.length === MAX_REPLAY_FRAMES ? rows[rows.length - 1]!.time : Math.max(from, bounds.last));
    return { ...base, to, frames };
  }
}
