import { ConflictException, Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import { validationException } from '../core/errors';
import { ResearchEvents } from '../research/research-events';
import { FurnacesService } from './furnaces.service';
import { type UnassignedRange, UnassignedRepository } from './unassigned.repository';

/** Readings more than this many scan periods apart are in two ranges. */
const RANGE_GAP_SCANS = 10;

export interface Attached {
  attached: number;
  skipped: number;
  researchName: string;
}

const iso = (d: Date) => d.toISOString();

/**
 * A furnace's unassigned readings (docs/behaviour.md, "Furnaces"): the frames of its DAQ that no test was scheduled for
 * at their time, listed as ranges, and attached by staff to the test they belong to.
 */
@Injectable()
export class UnassignedService {
  constructor(
    private readonly repo: UnassignedRepository,
    private readonly furnaces: FurnacesService,
    private readonly audit: AuditService,
    private readonly events: ResearchEvents,
  ) {}

  async ranges(furnaceId: string): Promise<{ ranges: UnassignedRange[]; gapS: number }> {
    const furnace = await this.furnaces.get(furnaceId);
    const gapS = RANGE_GAP_SCANS * furnace.scanPeriodS;
    return { ranges: await this.repo.ranges(furnaceId, gapS), gapS };
  }

  /**
   * Moves the furnace's unassigned readings from `from` to `to` that lie in the test's window into its readings, in one
   * transaction with its rollups made again, its kept criteria set aside and an audit entry; then tells its viewers.
   */
  async attach(furnaceId: string, researchId: string, from: Date, to: Date, by: string): Promise<Attached> {
    if (from.getTime() > to.getTime()) {
      throw validationException([{ loc: ['body', 'to'], msg: 'to must not be before from', type: 'time_window' }]);
    }
    const furnace = await this.furnaces.get(furnaceId);
    const result = await this.repo.transaction(async (em) => {
      const research = await this.repo.lockResearch(researchId, em);
      if (!research) {
        throw validationException([{ loc: ['body', 'research_id'], msg: 'No such test', type: 'not_found' }]);
      }
      if (research.furnace_id !== furnaceId) {
        throw new ConflictException(
          `The test "${research.name}" is not scheduled on furnace "${furnace.name}": only a test on this furnace can take its readings`,
        );
      }
      if (research.archived_at !== null) {
        throw new ConflictException(`The test "${research.name}" is archived: bring it back before attaching readings`);
      }
      if (research.approved_revision !== null) {
        throw new ConflictException(
          `the test is approved (revision ${research.approved_revision}): a superuser must reopen it first`,
        );
      }
      const window = `${iso(research.start_at)} – ${iso(research.end_at)}`;
      if (to.getTime() < research.start_at.getTime() || from.getTime() >= research.end_at.getTime()) {
        throw validationException([
          {
            loc: ['body', 'from'],
            msg: `The range ${iso(from)} – ${iso(to)} lies outside the test's window (${window})`,
            type: 'time_window',
          },
        ]);
      }
      const { found, attached } = await this.repo.attach(furnaceId, researchId, from, to, em);
      if (found === 0) {
        throw new ConflictException(
          `Furnace "${furnace.name}" has no unassigned readings from ${iso(from)} to ${iso(to)} within the test's window (${window}): nothing to attach`,
        );
      }
      const skipped = found - attached;
      await this.audit.record(
        {
          actor: by,
          researchId,
          entity: 'reading',
          entityId: furnaceId,
          action: 'attach',
          after: { furnace_id: furnaceId, from: iso(from), to: iso(to), attached, skipped },
        },
        em,
      );
      return { attached, skipped, researchName: research.name };
    });
    if (result.attached > 0) await this.events.changed(researchId, 'RESEARCH');
    return result;
  }
}
