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
  create(input: Required<Pick<ResearchInput, 'name' | 'startAt' | 'endAt'>> & ResearchInput): Promise<ResearchEntity> {
    if (input.endAt <= input.startAt) throw timeWindowError();
    const internal = this.config.internalClientEmail?.toLowerCase();
    return this.repo.create(
      {
        name: input.name,
        startAt: input.startAt,
        endAt: input.endAt,
        isRadiance: input.isRadiance ?? false,
        isFurnance: input.isFurnance ?? false,
        isPressure: input.isPressure ?? false,
      },
      internal ? [internal] : [],
    );
  }

  async update(id: string, input: ResearchInput): Promise<ResearchEntity> {
    const research = await this.get(id);
    const startAt = input.startAt ?? research.startAt;
    const endAt = input.endAt ?? research.endAt;
    if (endAt <= startAt) throw timeWindowError();
    const fields = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
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
