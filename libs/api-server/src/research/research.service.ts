import { ConflictException, ForbiddenException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isHttpUrl } from '@furnace/contracts';
import type { AppConfig } from '@furnace/config';
import type { ResearchEntity, ResearchUrlEntity } from '@furnace/db';
import { isApproved } from '../audit/approval';
import { archiveValues, changes, emailValues, RESEARCH_GROUPS, urlValues, wholeResearchValues } from '../audit/audit-values';
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
  'standard' | 'insulation' | 'heatingCurve' | 'criteriaBasis' | 'plannedDurationMin' | 'pressureTargetPa' | 'pressureTolerancePa'
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
      { loc: ['body', 'insulation'], msg: `insulation (I1/I2) applies to ${DOOR_STANDARD} (doors and shutters) only; give null for ${standard}`, type: 'profile' },
    ]);
  }
  const pick = <K extends keyof ProfileRow>(key: K, value: ProfileRow[K] | undefined): ProfileRow[K] => (value === undefined ? current[key] : value);
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
      { loc: ['body', 'pressure_tolerance_pa'], msg: 'pressure_tolerance_pa needs pressure_target_pa: give the target too', type: 'profile' },
    ]);
  }
  return profile;
}

/** A new research's profile before its input: limits above T0 on the ISO 834 curve. */
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
function t0Fields(input: ResearchInput, by: string): Partial<Pick<ResearchEntity, 't0Override' | 't0SetBy' | 't0SetAt'>> {
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
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

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
  create(input: Required<Pick<ResearchInput, 'name' | 'startAt' | 'endAt'>> & ResearchInput, by: string): Promise<ResearchEntity> {
    if (input.endAt <= input.startAt) throw timeWindowError();
    const profile = resolveProfile(NEW_RESEARCH_PROFILE, input);
    const t0 = input.t0Override === undefined || input.t0Override === null ? { t0Override: null, t0SetBy: null, t0SetAt: null } : t0Fields(input, by);
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
    return this.audit.transaction(async (em) => {
      const research = await this.repo.create(fields, emails, em);
      await this.audit.record({ actor: by, researchId: research.id, entity: 'research', entityId: research.id, action: 'create', after: wholeResearchValues(research) }, em);
      for (const email of emails) {
        await this.audit.record({ actor: by, researchId: research.id, entity: 'email', action: 'create', after: emailValues({ email, isSent: false }) }, em);
      }
      return research;
    });
  }

  /** `by`: e-mail of the member of staff, kept with a T0 set by hand. */
  async update(id: string, input: ResearchInput, by: string): Promise<ResearchEntity> {
    const updated = await this.audit.transaction(async (em) => {
      const research = await this.repo.findForUpdate(id, em);
      if (!research) throw new NotFoundException('Research not found');
      const startAt = input.startAt ?? research.startAt;
      const endAt = input.endAt ?? research.endAt;
      if (endAt <= startAt) throw timeWindowError();
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
    await this.events.changed(id, 'RESEARCH');
    return updated;
  }

  /** One entry per group of fields the change touched: the research's own, the profile, T0, the report. */
  private async recordChanges(before: ResearchEntity, after: ResearchEntity, by: string, em: EntityManager): Promise<void> {
    for (const group of RESEARCH_GROUPS) {
      const changed = changes(group.values(before), group.values(after));
      if (changed) await this.audit.record({ actor: by, researchId: before.id, entity: group.entity, entityId: before.id, action: 'update', ...changed }, em);
    }
  }

  /** An approved research is never deleted (409): its record is final; a superuser archives it instead. */
  async delete(id: string, by: string): Promise<void> {
    await this.audit.transaction(async (em) => {
      const research = await this.repo.findForUpdate(id, em);
      if (!research) throw new NotFoundException('Research not found');
      if (isApproved(research)) {
        throw new ConflictException('This research is approved: its record is final and cannot be deleted. Archive it instead (it is then hidden from the lists and kept whole).');
      }
      await this.repo.delete(id, em);
      await this.audit.record({ actor: by, researchId: id, entity: 'research', entityId: id, action: 'delete', before: wholeResearchValues(research) }, em);
    });
    await this.events.changed(id, 'RESEARCH');
  }

  /**
   * Archives a research (`archived`), or brings it back: hidden from the lists or shown again, every row kept.
   * Archiving an archived research (or the reverse) changes nothing and writes no entry.
   */
  async setArchived(id: string, archived: boolean, by: string): Promise<ResearchEntity> {
    const result = await this.audit.transaction(async (em) => {
      const research = await this.repo.findForUpdate(id, em);
      if (!research) throw new NotFoundException('Research not found');
      if ((research.archivedAt !== null) === archived) return { research, changed: false };
      const after = await this.repo.update(research, archived ? { archivedAt: new Date(), archivedBy: by } : { archivedAt: null, archivedBy: null }, em);
      const action = archived ? 'archive' : 'unarchive';
      await this.audit.record({ actor: by, researchId: id, entity: 'research', entityId: id, action, before: archiveValues(research), after: archiveValues(after) }, em);
      return { research: after, changed: true };
    });
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
      await this.audit.record({ actor: by, researchId, entity: 'url', entityId: row.id, action: 'create', after: urlValues(row.url) }, em);
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
      if (changed) await this.audit.record({ actor: by, researchId: row.researchId, entity: 'url', entityId: id, action: 'update', ...changed }, em);
      return row;
    });
    await this.events.changed(entity.researchId, 'LIVESTREAM');
    return updated;
  }

  async deleteUrl(id: string, by: string): Promise<void> {
    const entity = await this.getUrl(id);
    await this.audit.transaction(async (em) => {
      await this.repo.deleteUrl(id, em);
      await this.audit.record({ actor: by, researchId: entity.researchId, entity: 'url', entityId: id, action: 'delete', before: urlValues(entity.url) }, em);
    });
    await this.events.changed(entity.researchId, 'LIVESTREAM');
  }
}
