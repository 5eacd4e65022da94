import { Injectable } from '@nestjs/common';
import { toObservationDto, toThermoExclusionDto } from '../criteria/observation.dto';
import { CriteriaService } from '../criteria/criteria.service';
import { Precompressed } from '../core/precompressed';
import { SharedAnswers } from '../core/shared-answers';
import type { Principal } from '../auth/principal';
import { HistoryService } from '../history/history.service';
import { toResearchDto, toUrlDto } from '../research/research.dto';
import { ResearchEvents } from '../research/research-events';
import { ResearchService } from '../research/research.service';
import { toMarkerDto, toThermoConfigDto } from '../thermo/thermo.dto';
import { ThermoService } from '../thermo/thermo.service';
import type { LiveViewDto } from './live-view.dto';
import { StreamTickets } from './stream-tickets';

/**
 * How long one research's live view is shared by the callers of one audience (ms): a crowd opening it
 * at once — its clients reconnecting after a restart — reads it from the database once. A change of
 * the research, made through any instance, forgets it at once (ResearchEvents.onChange).
 */
const SHARED_MS = 1_000;

/** A live view's answer to one caller: the body its audience shares, and the caller's own stream ticket. */
export interface LiveViewAnswer {
  body: Precompressed;
  ticket: { ticket: string; expires_in: number };
}

/** What GET /research/{id}/live-view answers: the live view's reads in one (see LiveViewDto). */
@Injectable()
export class LiveViewService {
  /** The body as JSON, and compressed: made once, not once per response (a crowd's 1 000). */
  private readonly shared = new SharedAnswers<Precompressed>(SHARED_MS, 256);

  constructor(
    private readonly research: ResearchService,
    private readonly thermo: ThermoService,
    private readonly criteria: CriteriaService,
    private readonly history: HistoryService,
    private readonly tickets: StreamTickets,
    events: ResearchEvents,
  ) {
    events.onChange((researchId) => this.shared.forget(researchId));
  }

  /**
   * The LiveViewDto, shared by the callers of one audience, and the caller's own stream ticket (never
   * shared: it goes in the response's headers). Throws NotFoundException for an unknown research.
   */
  async liveView(researchId: string, principal: Principal, points: number): Promise<LiveViewAnswer> {
    const viewer = principal.kind === 'viewer';
    const body = await this.shared.get(
      `${researchId}|${viewer ? 'client' : 'staff'}|${points}`,
      async () => new Precompressed(Buffer.from(JSON.stringify(await this.read(researchId, principal, points)))),
    );
    const { ticket, expiresIn } = await this.tickets.issue(researchId, principal);
    return { body, ticket: { ticket, expires_in: expiresIn } };
  }

  private async read(researchId: string, principal: Principal, points: number): Promise<LiveViewDto> {
    const viewer = principal.kind === 'viewer';
    // The research first: an unknown one is a 404 before anything else is read.
    const research = await this.research.get(researchId);
    const [urls, configs, markers, observations, exclusions, history] = await Promise.all([
      this.research.listUrls(researchId),
      this.thermo.list(researchId),
      this.thermo.markersOfResearch(researchId),
      this.criteria.observations(researchId, principal),
      this.criteria.exclusions(researchId),
      this.history.history(researchId, { points }),
    ]);
    return {
      research: toResearchDto(research, viewer),
      urls: urls.map(toUrlDto),
      configs: configs.map(toThermoConfigDto),
      markers: markers.map(toMarkerDto),
      observations: observations.map((o) => toObservationDto(o, viewer)),
      exclusions: exclusions.map((e) => toThermoExclusionDto(e, viewer)),
      history,
    };
  }
}
