import { Inject, Injectable, Logger } from '@nestjs/common';
import { encodeBusMessage, researchChannel, type UpdateKind } from '@furnace/contracts';
import type { Bus } from '@furnace/bus';
import { BUS } from '../core/tokens';

/** Tells live viewers (through the bus, on every API instance) that staff changed something they show. */
@Injectable()
export class ResearchEvents {
  private readonly logger = new Logger('ResearchEvents');

  constructor(@Inject(BUS) private readonly bus: Bus) {}

  /** Best effort: a lost notice costs a viewer a refresh, never a stored change. */
  async changed(researchId: string, kind: UpdateKind): Promise<void> {
    try {
      await this.bus.publish(researchChannel(researchId), encodeBusMessage({ type: 'update', research_id: researchId, kind }));
    } catch (e) {
      this.logger.warn(`UPDATE ${kind} for ${researchId} not published: ${(e as Error).message}`);
    }
  }
}
