import { Inject, Injectable, Logger } from '@nestjs/common';
import { encodeBusMessage, researchChannel, type UpdateKind } from '@furnace/contracts';
import type { Bus } from '@furnace/bus';
import { BUS } from '../core/tokens';

/** Tells live viewers (through the bus, on every API instance) that staff changed something they show. */
@Injectable()
export class ResearchEvents {
  private readonly logger = new Logger('ResearchEvents');

  private readonly listeners: ((researchId: string, kind: UpdateKind) => void)[] = [];

  constructor(@Inject(BUS) private readonly bus: Bus) {}

  /**
   * Told of every change made through this instance, before the notice goes out on the bus (the
   * kept criteria forget the inputs they read, so the next answer of this instance reads them again).
   */
  onLocalChange(listener: (researchId: string, kind: UpdateKind) => void): void {
    this.listeners.push(listener);
  }

  /** Best effort: a lost notice costs a viewer a refresh, never a stored change. */
  async changed(researchId: string, kind: UpdateKind): Promise<void> {
    for (const listener of this.listeners) listener(researchId, kind);
    try {
      await this.bus.publish(researchChannel(researchId), encodeBusMessage({ type: 'update', research_id: researchId, kind }));
    } catch (e) {
      this.logger.warn(`UPDATE ${kind} for ${researchId} not published: ${(e as Error).message}`);
    }
  }
}
