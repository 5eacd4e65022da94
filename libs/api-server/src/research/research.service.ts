import { ForbiddenException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { isHttpUrl } from '@furnace/contracts';
import type { AppConfig } from '@furnace/config';
import type { ResearchEntity, ResearchUrlEntity } from '@furnace/db';
import { validationException } from '../core/errors';
import { APP_CONFIG } from '../core/tokens';
import { ResearchOwnershipRepository } from '../auth/research-ownership.repository';
import { TokenService, VIEWER_TOKEN_MINUTES } from '../auth/token.service';
import { ResearchEvents } from './research-events';
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
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  list(): Promise<ResearchEntity[]> {
    return this.repo.list();
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
    return this.repo.create(
      {
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
      },
      internal ? [internal] : [],
    );
  }

  /** `by`: e-mail of the member of staff, kept with a T0 set by hand. */
  async update(id: string, input: ResearchInput, by: string): Promise<ResearchEntity> {
    const research = await this.get(id);
    const startAt = input.startAt ?? research.startAt;
    const endAt = input.endAt ?? research.endAt;
    if (endAt <= startAt) throw timeWindowError();
    const { t0Override: _t0, ...rest } = input;
    const fields = {
      ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
      ...resolveProfile(research, input),
      ...t0Fields(input, by),
    };
    const updated = await this.repo.update(research, fields);
    await this.events.changed(id, 'RESEARCH');
    return updated;
  }

  async delete(id: string): Promise<void> {
    await this.get(id);
    await this.repo.delete(id);
    await this.events.changed(id, 'RESEARCH');
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

  async createUrl(researchId: string, url: string): Promise<ResearchUrlEntity> {
    if (!isHttpUrl(url)) throw urlError();
    await this.get(researchId);
    const created = await this.repo.createUrl(researchId, url);
    await this.events.changed(researchId, 'LIVESTREAM');
    return created;
  }

  async updateUrl(id: string, url: string): Promise<ResearchUrlEntity> {
    if (!isHttpUrl(url)) throw urlError();
    const entity = await this.getUrl(id);
    const updated = await this.repo.updateUrl(entity, url);
    await this.events.changed(entity.researchId, 'LIVESTREAM');
    return updated;
  }

  async deleteUrl(id: string): Promise<void> {
    const entity = await this.getUrl(id);
    await this.repo.deleteUrl(id);
    await this.events.changed(entity.researchId, 'LIVESTREAM');
  }
}
