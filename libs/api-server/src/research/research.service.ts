import { ConflictException, ForbiddenException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { type EntityManager, QueryFailedError } from 'typeorm';
import { isHttpUrl } from '@furnace/contracts';
import type { ApiConfig } from '@furnace/config';
import type { FurnaceEntity, ResearchEntity, ResearchUrlEntity } from '@furnace/db';
import { DEFAULT_LANGUAGE } from '@furnace/text';
import { FurnacesRepository } from '../furnaces/furnaces.repository';
import { isApproved } from '../audit/approval';
import {
  archiveValues,
  changes,
  emailValues,
  RESEARCH_GROUPS,
  urlValues,
  wholeResearchValues,
} from '../audit/audit-values';
import { AuditService } from '../audit/audit.service';
import { validationException } from '../core/errors';
import { APP_CONFIG } from '../core/tokens';
import { ResearchOwnershipRepository } from '../auth/research-ownership.repository';
import { TokenService, VIEWER_TOKEN_MINUTES } from '../auth/token.service';
import { ResearchEvents } from './research-events';
import { NOT_REVIEWED } from './research-state';
import { ResearchRepository } from './research.repository';

export interface ResearchInput {
  name?: string;
  startAt?: Date;
  endAt?: Date;
  isRadiance?: boolean;
  isFurnance?: boolean;
  isPressure?: boolean;
  classificationToClients?: boolean;
  /** The furnace it is scheduled on (docs/behaviour.md, "Furnaces"); null: none, undefined leaves it. */
  furnaceId?: string | null;
  /** The member of staff responsible for the test, told of its alarms (docs/behaviour.md, "Alarms"); null: none. */
  responsibleUserId?: string | null;
  /** The test profile; null clears a nullable field, undefined leaves it. */
  standard?: string;
  insulation?: string | null;
  heatingCurve?: string;
  criteriaBasis?: string;
  plannedDurationMin?: number | null;
  pressureTargetPa?: number | null;
  pressureTolerancePa?: number | null;
  t0Override?: number | null;
  /** What the test report states (EN 1363-1 §12); null clears a field, undefined leaves it. */
  sponsor?: string | null;
  manufacturer?: string | null;
  specimenDescription?: string | null;
  conditioning?: string | null;
  supportingConstruction?: string | null;
  exposedSide?: string | null;
  ambientTemperatureC?: number | null;
  pressureHeightMm?: number | null;
  endReason?: string | null;
  deviations?: string | null;
  reportNumber?: string | null;
  reportDate?: string | null;
}

type ReportRow = Pick<
  ResearchEntity,
  | 'sponsor'
  | 'manufacturer'
  | 'specimenDescription'
  | 'conditioning'
  | 'supportingConstruction'
  | 'exposedSide'
  | 'ambientTemperatureC'
  | 'pressureHeightMm'
  | 'endReason'
  | 'deviations'
  | 'reportNumber'
  | 'reportDate'
>;

/** A new research's report fields: each one given, the others not (null). */
function newReportFields(input: ResearchInput): ReportRow {
  return {
    sponsor: input.sponsor ?? null,
    manufacturer: input.manufacturer ?? null,
    specimenDescription: input.specimenDescription ?? null,
    conditioning: input.conditioning ?? null,
    supportingConstruction: input.supportingConstruction ?? null,
    exposedSide: input.exposedSide ?? null,
    ambientTemperatureC: input.ambientTemperatureC ?? null,
    pressureHeightMm: input.pressureHeightMm ?? null,
    endReason: input.endReason ?? null,
    deviations: input.deviations ?? null,
    reportNumber: input.reportNumber ?? null,
    reportDate: input.reportDate ?? null,
  };
}

type ProfileRow = Pick<
  ResearchEntity,
  | 'standard'
  | 'insulation'
  | 'heatingCurve'
  | 'criteriaBasis'
  | 'plannedDurationMin'
  | 'pressureTargetPa'
  | 'pressureTolerancePa'
>;

/** The standard whose tests have insulation classes I1/I2 (doors and shutters). */
const DOOR_STANDARD = 'EN_1634_1';

/**
 * The profile a research ends up with after `input` is applied to `current` (the defaults for a new
 * one), or a 422 naming the field. Insulation belongs to EN_1634_1 only: I2 when it is not given
 * there, and cleared when the standard changes to another one.
 */
function resolveProfile(current: ProfileRow, input: ResearchInput): ProfileRow {
  const standard = input.standard ?? current.standard;
  let insulation: string | null;
  if (input.insulation !== undefined) insulation = input.insulation;
  else if (standard !== current.standard) insulation = null;
  else insulation = current.insulation;
  if (standard === DOOR_STANDARD) insulation ??= 'I2';
  else if (insulation !== null) {
    throw validationException([
      {
        loc: ['body', 'insulation'],
        msg: `insulation (I1/I2) applies to ${DOOR_STANDARD} (doors and shutters) only; give null for ${standard}`,
        type: 'profile',
      },
    ]);
  }
  const pick = <K extends keyof ProfileRow>(key: K, value: ProfileRow[K] | undefined): ProfileRow[K] =>
    value === undefined ? current[key] : value;
  const profile: ProfileRow = {
    standard,
    insulation,
    heatingCurve: pick('heatingCurve', input.heatingCurve),
    criteriaBasis: pick('criteriaBasis', input.criteriaBasis),
    plannedDurationMin: pick('plannedDurationMin', input.plannedDurationMin),
    pressureTargetPa: pick('pressureTargetPa', input.pressureTargetPa),
    pressureTolerancePa: pick('pressureTolerancePa', input.pressureTolerancePa),
  };
  if (profile.pressureTolerancePa !== null && profile.pressureTargetPa === null) {
    throw validationException([
      {
        loc: ['body', 'pressure_tolerance_pa'],
        msg: 'pressure_tolerance_pa needs pressure_target_pa: give the target too',
        type: 'profile',
      },
    ]);
  }
  return profile;
}

/** A new research's profile before its input: limits above T0 on the ISO 834 curve. */
/** The database's constraint that two tests on one furnace never overlap (migration 1797400000000). */
const FURNACE_WINDOW = 'EXCL_research_furnace_window';

/** A new test on a furnace starts from the furnace's defaults (docs/behaviour.md, "Furnaces"). */
const furnaceProfile = (f: FurnaceEntity): ProfileRow => ({
  ...NEW_RESEARCH_PROFILE,
  standard: f.standard,
  heatingCurve: f.heatingCurve,
  pressureTargetPa: f.pressureTargetPa,
  pressureTolerancePa: f.pressureTolerancePa,
});

const NEW_RESEARCH_PROFILE: ProfileRow = {
  standard: 'EN_1363_1',
  insulation: null,
  heatingCurve: 'iso834',
  criteriaBasis: 'rise',
  plannedDurationMin: null,
  pressureTargetPa: null,
  pressureTolerancePa: null,
};

/** t0_override with who set it and when, when the input sets or clears it. */
function t0Fields(
  input: ResearchInput,
  by: string,
): Partial<Pick<ResearchEntity, 't0Override' | 't0SetBy' | 't0SetAt'>> {
  if (input.t0Override === undefined) return {};
  return { t0Override: input.t0Override, t0SetBy: by, t0SetAt: new Date() };
}

const timeWindowError = () =>
  validationException([{ loc: ['body', 'end_at'], msg: 'end_at must be after start_at', type: 'time_window' }]);
const urlError = () =>
  validationException([{ loc: ['body', 'url'], msg: 'url must be an http:// or https:// link', type: 'http_url' }]);

/** The rules of researches and their stream links. */
@Injectable()
export class ResearchService {
  constructor(
    private readonly repo: ResearchRepository,
    private readonly events: ResearchEvents,
    private readonly tokens: TokenService,
    private readonly ownership: ResearchOwnershipRepository,
    private readonly audit: AuditService,
    private readonly furnaces: FurnacesRepository,
    @Inject(APP_CONFIG) private readonly config: ApiConfig,
  ) {}

  /** The furnace a body names, or a 422 on `furnace_id` when there is none. */
  private async furnaceOf(id: string, em?: EntityManager): Promise<FurnaceEntity> {
    const furnace = await this.furnaces.findById(id, em);
    if (!furnace)
      throw validationException([
        { loc: ['body', 'furnace_id'], msg: `furnace ${id} does not exist`, type: 'furnace' },
      ]);
    return furnace;
  }

  /** The member of staff a body names as responsible, or a 422 on `responsible_user_id` when there is none. */
  private async responsibleOf(id: string, em?: EntityManager): Promise<void> {
    if (!(await this.repo.staffExists(id, em)))
      throw validationException([
        { loc: ['body', 'responsible_user_id'], msg: `user ${id} does not exist`, type: 'user' },
      ]);
  }

  /**
   * Runs a change of a research's schedule; when the database's exclusion constraint finds it overlapping another
   * test on the same furnace, a 409 that names that test.
   */
  private async scheduled<T>(
    change: () => Promise<T>,
    wanted: () => { id: string | null; furnaceId: string | null | undefined; startAt: Date; endAt: Date },
  ): Promise<T> {
    try {
      return await change();
    } catch (error) {
      if (!(
        error instanceof QueryFailedError &&
        (error.driverError as { constraint?: string }).constraint === FURNACE_WINDOW
      ))
        throw error;
      const { id, furnaceId, startAt, endAt } = wanted();
      const other = furnaceId ? await this.repo.overlapping(furnaceId, startAt, endAt, id) : null;
      const furnace = furnaceId ? await this.furnaces.findById(furnaceId) : null;
      const when = other
        ? `"${other.name}" (${other.startAt.toISOString()} – ${other.endAt.toISOString()})`
        : 'another test';
      throw new ConflictException(
        `Furnace "${furnace?.name ?? furnaceId}" already has a test at that time: ${when}. Two tests on one furnace may not overlap.`,
      );
    }
  }

  /** Archived researches are left out unless `includeArchived` (superusers, docs/behaviour.md "The audit trail"). */
  list(includeArchived = false): Promise<ResearchEntity[]> {
    return this.repo.list(includeArchived);
  }

  async get(id: string): Promise<ResearchEntity> {
    const r = await this.repo.findById(id);
    if (!r) throw new NotFoundException('Research not found');
    return r;
  }

  /** A new research; the lab's own address (INTERNAL_CLIENT_EMAIL) is invited to every one. */
  async create(
    input: Required<Pick<ResearchInput, 'name' | 'startAt' | 'endAt'>> & ResearchInput,
    by: string,
  ): Promise<ResearchEntity> {
    if (input.endAt <= input.startAt) throw timeWindowError();
    const furnace = input.furnaceId ? await this.furnaceOf(input.furnaceId) : null;
    if (input.responsibleUserId) await this.responsibleOf(input.responsibleUserId);
    const profile = resolveProfile(furnace ? furnaceProfile(furnace) : NEW_RESEARCH_PROFILE, input);
    const t0 =
      input.t0Override === undefined || input.t0Override === null
        ? { t0Override: null, t0SetBy: null, t0SetAt: null }
        : t0Fields(input, by);
    const internal = this.config.internalClientEmail?.toLowerCase();
    const emails = internal ? [internal] : [];
    const fields = {
      name: input.name,
      startAt: input.startAt,
      endAt: input.endAt,
      isRadiance: input.isRadiance ?? false,
      isFurnance: input.isFurnance ?? false,
      isPressure: input.isPressure ?? false,
      classificationToClients: input.classificationToClients ?? true,
      furnaceId: furnace?.id ?? null,
      responsibleUserId: input.responsibleUserId ?? null,
      ...profile,
      ...newReportFields(input),
      t0Override: null,
      t0SetBy: null,
      t0SetAt: null,
      ...t0,
      archivedAt: null,
      archivedBy: null,
      ...NOT_REVIEWED,
    };
    const create = () =>
      this.audit.transaction(async (em) => {
        const research = await this.repo.create(fields, emails, em);
        await this.audit.record(
          {
            actor: by,
            researchId: research.id,
            entity: 'research',
            entityId: research.id,
            action: 'create',
            after: wholeResearchValues(research),
          },
          em,
        );
        for (const email of emails) {
          await this.audit.record(
            {
              actor: by,
              researchId: research.id,
              entity: 'email',
              action: 'create',
              after: emailValues({ email, lang: DEFAULT_LANGUAGE, isSent: false }),
            },
            em,
          );
        }
        return research;
      });
    return this.scheduled(create, () => ({
      id: null,
      furnaceId: fields.furnaceId,
      startAt: fields.startAt,
      endAt: fields.endAt,
    }));
  }

  /** `by`: e-mail of the member of staff, kept with a T0 set by hand. */
  async update(id: string, input: ResearchInput, by: string): Promise<ResearchEntity> {
    let wanted = {
      id,
      furnaceId: input.furnaceId as string | null | undefined,
      startAt: new Date(0),
      endAt: new Date(0),
    };
    const update = () =>
      this.audit.transaction(async (em) => {
        const research = await this.repo.findForUpdate(id, em);
        if (!research) throw new NotFoundException('Research not found');
        const startAt = input.startAt ?? research.startAt;
        const endAt = input.endAt ?? research.endAt;
        if (endAt <= startAt) throw timeWindowError();
        if (input.furnaceId) await this.furnaceOf(input.furnaceId, em);
        if (input.responsibleUserId) await this.responsibleOf(input.responsibleUserId, em);
        wanted = {
          id,
          furnaceId: input.furnaceId === undefined ? research.furnaceId : input.furnaceId,
          startAt,
          endAt,
        };
        const { t0Override: _t0, ...rest } = input;
        const fields = {
          ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
          ...resolveProfile(research, input),
          ...t0Fields(input, by),
        };
        const after = await this.repo.update(research, fields, em);
        await this.recordChanges(research, after, by, em);
        return after;
      });
    const updated = await this.scheduled(update, () => wanted);
    await this.events.changed(id, 'RESEARCH');
    return updated;
  }

  /** One entry per group of fields the change touched: the research's own, the profile, T0, the report. */
  private async recordChanges(
    before: ResearchEntity,
    after: ResearchEntity,
    by: string,
    em: EntityManager,
  ): Promise<void> {
    for (const group of RESEARCH_GROUPS) {
      const changed = changes(group.values(before), group.values(after));
      if (changed)
        await this.audit.record(
          { actor: by, researchId: before.id, entity: group.entity, entityId: before.id, action: 'update', ...changed },
          em,
        );
    }
  }

  /** An approved research is never deleted (409): its record is final; a superuser archives it instead. */
  async delete(id: string, by: string): Promise<void> {
    await this.audit.transaction(async (em) => {
      const research = await this.repo.findForUpdate(id, em);
      if (!research) throw new NotFoundException('Research not found');
      if (isApproved(research)) {
        throw new ConflictException(
          'This research is approved: its record is final and cannot be deleted. Archive it instead (it is then hidden from the lists and kept whole).',
        );
      }
      await this.repo.delete(id, em);
      await this.audit.record(
        {
          actor: by,
          researchId: id,
          entity: 'research',
          entityId: id,
          action: 'delete',
          before: wholeResearchValues(research),
        },
        em,
      );
    });
    await this.events.changed(id, 'RESEARCH');
  }

  /**
   * Archives a research (`archived`), or brings it back: hidden from the lists or shown again, every row kept.
   * Archiving an archived research (or the reverse) changes nothing and writes no entry.
   */
  async setArchived(id: string, archived: boolean, by: string): Promise<ResearchEntity> {
    let wanted = { id, furnaceId: null as string | null, startAt: new Date(0), endAt: new Date(0) };
    const change = () =>
      this.audit.transaction(async (em) => {
        const research = await this.repo.findForUpdate(id, em);
        if (!research) throw new NotFoundException('Research not found');
        wanted = { id, furnaceId: research.furnaceId, startAt: research.startAt, endAt: research.endAt };
        if ((research.archivedAt !== null) === archived) return { research, changed: false };
        const after = await this.repo.update(
          research,
          archived ? { archivedAt: new Date(), archivedBy: by } : { archivedAt: null, archivedBy: null },
          em,
        );
        const action = archived ? 'archive' : 'unarchive';
        await this.audit.record(
          {
            actor: by,
            researchId: id,
            entity: 'research',
            entityId: id,
            action,
            before: archiveValues(research),
            after: archiveValues(after),
          },
          em,
        );
        return { research: after, changed: true };
      });
    // An archived test leaves its furnace's schedule; bringing it back may meet a test planned since.
    const result = await this.scheduled(change, () => wanted);
    if (result.changed) await this.events.changed(id, 'RESEARCH');
    return result.research;
  }

  /**
   * Exchanges a client's access code (the id of one of the research's e-mail records) for a viewer
   * token that reads this research only.
   */
  async viewerToken(researchId: string, code: string): Promise<{ token: string; expiresIn: number }> {
    if (!(await this.repo.exists(researchId))) throw new NotFoundException('Research not found');
    if (!(await this.ownership.isInvited(code, researchId))) throw new ForbiddenException('Invalid access code');
    return { token: this.tokens.viewerToken(code.toLowerCase(), researchId), expiresIn: VIEWER_TOKEN_MINUTES * 60 };
  }

  async listUrls(researchId: string): Promise<ResearchUrlEntity[]> {
    await this.get(researchId);
    return this.repo.listUrls(researchId);
  }

  async getUrl(id: string): Promise<ResearchUrlEntity> {
    const url = await this.repo.findUrl(id);
    if (!url) throw new NotFoundException('URL not found');
    return url;
  }

  async createUrl(researchId: string, url: string, by: string): Promise<ResearchUrlEntity> {
    if (!isHttpUrl(url)) throw urlError();
    await this.get(researchId);
    const created = await this.audit.transaction(async (em) => {
      const row = await this.repo.createUrl(researchId, url, em);
      await this.audit.record(
        { actor: by, researchId, entity: 'url', entityId: row.id, action: 'create', after: urlValues(row.url) },
        em,
      );
      return row;
    });
    await this.events.changed(researchId, 'LIVESTREAM');
    return created;
  }

  async updateUrl(id: string, url: string, by: string): Promise<ResearchUrlEntity> {
    if (!isHttpUrl(url)) throw urlError();
    const entity = await this.getUrl(id);
    const before = urlValues(entity.url);
    const updated = await this.audit.transaction(async (em) => {
      const row = await this.repo.updateUrl(entity, url, em);
      const changed = changes(before, urlValues(row.url));
      if (changed)
        await this.audit.record(
          { actor: by, researchId: row.researchId, entity: 'url', entityId: id, action: 'update', ...changed },
          em,
        );
      return row;
    });
    await this.events.changed(entity.researchId, 'LIVESTREAM');
    return updated;
  }

  async deleteUrl(id: string, by: string): Promise<void> {
    const entity = await this.getUrl(id);
    await this.audit.transaction(async (em) => {
      await this.repo.deleteUrl(id, em);
      await this.audit.record(
        {
          actor: by,
          researchId: entity.researchId,
          entity: 'url',
          entityId: id,
          action: 'delete',
          before: urlValues(entity.url),
        },
        em,
      );
    });
    await this.events.changed(entity.researchId, 'LIVESTREAM');
  }
}
