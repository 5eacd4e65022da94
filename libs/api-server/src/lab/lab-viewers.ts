import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Bus } from '@furnace/bus';
import { BUS } from '../core/tokens';
import { LiveService } from '../live/live.service';

/** Where each instance tells the others how many live viewers of each research it holds. */
const VIEWERS_CHANNEL = 'lab:viewers';
/** How often an instance tells its counts (ms); a count of an instance not heard for 3 of these is dropped. */
const TELL_EVERY_MS = 2_000;

interface Told {
  counts: Map<string, number>;
  at: number;
}

/**
 * Live viewers of a research on every API instance (docs/behaviour.md §18): each instance counts its own
 * (LiveService) and publishes them on the bus every 2 s; the others add them up. A count reaches the other
 * instances within about 2 s; one of an instance gone silent (stopped, killed) is dropped after 6 s.
 */
@Injectable()
export class LabViewers {
  private readonly logger = new Logger('LabViewers');
  private readonly instance = randomUUID();
  private readonly others = new Map<string, Told>();
  private timer: NodeJS.Timeout | null = null;
  private stop: (() => Promise<void>) | null = null;
  private toldEmpty = false;

  constructor(
    private readonly live: LiveService,
    @Inject(BUS) private readonly bus: Bus,
  ) {}

  async start(): Promise<void> {
    this.stop = await this.bus.subscribe(VIEWERS_CHANNEL, (message) => this.heard(message));
    this.timer = setInterval(() => this.tell(), TELL_EVERY_MS);
    this.timer.unref();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.stop?.().catch(() => undefined);
  }

  /** Viewers of the research on every instance heard from lately, this one's counted now. */
  of(researchId: string, local: Map<string, number>): number {
    let n = local.get(researchId) ?? 0;
    const fresh = Date.now() - 3 * TELL_EVERY_MS;
    for (const [instance, told] of this.others) {
      if (told.at < fresh) this.others.delete(instance);
      else n += told.counts.get(researchId) ?? 0;
    }
    return n;
  }

  private tell(): void {
    const counts = this.live.viewersByResearch();
    // An instance with no viewers says so once, then is quiet until it has some.
    if (counts.size === 0 && this.toldEmpty) return;
    this.toldEmpty = counts.size === 0;
    this.bus
      .publish(VIEWERS_CHANNEL, JSON.stringify({ instance: this.instance, counts: Object.fromEntries(counts) }))
      .catch((e: Error) => this.logger.warn(`Viewer counts not told: ${e.message}`));
  }

  private heard(message: string): void {
    try {
      const { instance, counts } = JSON.parse(message) as { instance: unknown; counts: unknown };
      if (typeof instance !== 'string' || instance === this.instance || typeof counts !== 'object' || counts === null)
        return;
      const map = new Map<string, number>();
      for (const [id, n] of Object.entries(counts)) if (typeof n === 'number' && n > 0) map.set(id, n);
      if (map.size === 0) this.others.delete(instance);
      else this.others.set(instance, { counts: map, at: Date.now() });
    } catch {
      // Not a count: ignored.
    }
  }
}
