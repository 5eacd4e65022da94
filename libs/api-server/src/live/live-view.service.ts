import { Injectable } from '@nestjs/common';
import { toObservationDto, toThermoExclusionDto } from '../criteria/observation.dto';
import { CriteriaService } from '../criteria/criteria.service';
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

/** What GET /research/{id}/live-view answers: the live view's reads in one (see LiveViewDto). */
@Injectable()
export class LiveViewService {
  /** The shared parts as JSON (the members without the braces): made once, not once per response (a crowd's 1 000). */
  private readonly shared = new SharedAnswers<string>(SHARED_MS, 256);

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
   * The LiveViewDto as JSON text. Throws NotFoundException for an unknown research. The stream ticket is
   * the caller's own, never shared.
   */
  async liveView(researchId: string, principal: Principal, points: number): Promise<string> {
    const viewer = principal.kind === 'viewer';
    const shown = await this.shared.get(`${researchId}|${viewer ? 'client' : 'staff'}|${points}`, async () =>
      JSON.stringify(await this.read(researchId, principal, points)).slice(1, -1),
    );
    const { ticket, expiresIn } = await this.tickets.issue(researchId, principal);
    const own: Pick<LiveViewDto, 'stream_ticket'> = { stream_ticket: { ticket, expires_in: expiresIn } };
    return `${JSON.stringify(own).slice(0, -1)},${shown}}`;
  }

  private async read(researchId: string, principal: Principal, points: number): Promise<Omit<LiveViewDto, 'stream_ticket'>> {
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
