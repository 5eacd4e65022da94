import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import {
  BUS_CHANNEL_PREFIX,
  encodeBusMessage,
  parseBusMessage,
  parseResearchChannel,
  researchChannel,
  type UpdateKind,
} from '@furnace/contracts';
import type { Bus } from '@furnace/bus';
import { BUS } from '../core/tokens';

type Listener = (researchId: string, kind: UpdateKind) => void;

/**
 * Tells live viewers (through the bus, on every API instance) that staff changed something they show,
 * and tells this instance's parts of every change, made here or through another instance.
 */
@Injectable()
export class ResearchEvents implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('ResearchEvents');

  private readonly local: Listener[] = [];
  private readonly any: Listener[] = [];
  private stopBus: (() => Promise<void>) | null = null;

  constructor(@Inject(BUS) private readonly bus: Bus) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.any.length === 0) return;
    this.stopBus = await this.bus.subscribePrefix(BUS_CHANNEL_PREFIX, (channel, message) => {
      // Frames are by far the most frequent: passed over without parsing (the ingest writes type first).
      if (!message.startsWith('{"type":"update"')) return;
      const researchId = parseResearchChannel(channel);
      const parsed = parseBusMessage(message);
      if (researchId === null || !parsed.ok || parsed.value.type !== 'update') return;
      for (const listener of this.any) listener(researchId, parsed.value.kind);
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.stopBus?.().catch(() => undefined);
  }

  /**
   * Told of every change made through this instance, before the notice goes out on the bus (the
   * kept criteria forget the inputs they read, so the next answer of this instance reads them again).
   */
  onLocalChange(listener: Listener): void {
    this.local.push(listener);
  }

  /**
   * Told of every change, made through this instance (at once) or another (when its notice arrives on
   * the bus, before any viewer it reaches can ask again): what keeps answers made of a research's data
   * forgets them. Register in a constructor (the bus is subscribed as the application starts).
   */
  onChange(listener: Listener): void {
    this.local.push(listener);
    this.any.push(listener);
  }

  /**
   * Best effort: a lost notice costs a viewer a refresh, never a stored change. `staffOnly`: the change is
   * to something clients are not shown (a hidden observation): their streams are not told.
   */
  async changed(
    researchId: string,
    kind: UpdateKind,
    { staffOnly = false }: { staffOnly?: boolean } = {},
  ): Promise<void> {
    for (const listener of this.local) listener(researchId, kind);
    try {
      const message = encodeBusMessage({
        type: 'update',
        research_id: researchId,
        kind,
        ...(staffOnly ? { staff_only: true } : {}),
      });
      await this.bus.publish(researchChannel(researchId), message);
    } catch (e) {
      this.logger.warn(`UPDATE ${kind} for ${researchId} not published: ${(e as Error).message}`);
    }
  }
}
