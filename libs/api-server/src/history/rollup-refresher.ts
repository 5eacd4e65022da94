import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { refreshQueuedCategoryRollups } from '@furnace/db';
import { CriteriaKeeper } from '../criteria/criteria-keeper';
import { ResearchEvents } from '../research/research-events';
import { HistoryService } from './history.service';

/** How often the queue is looked at when nothing here announced a change (ms). */
const POLL_MS = 1_000;
/**
 * After a change made here, how long the drain waits (ms): the criteria keeper hears the change on the bus
 * within a few milliseconds and starts its pass over the test, which the rebuild then lets go first.
 */
const AFTER_CHANGE_MS = 200;

/**
 * Drains the queue of category-rollup refreshes (an exclusion changed: @furnace/db rollup-refresh.ts)
 * off the request that made the change: shortly after a change made through this instance, and every
 * second for those made through another. A history read meanwhile shows the category series as they
 * were in the chunks not yet rebuilt (docs/architecture.md, "Category rollups after an exclusion"). A
 * pass of the criteria over a whole test on this instance goes first: each chunk's rebuild waits for it.
 */
@Injectable()
export class RollupRefresher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Rollups');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private readonly stop = new AbortController();
  /** Settles when the instance stops: a rebuild waiting for the criteria's passes stops waiting then. */
  private readonly stopped = new Promise<void>((resolve) =>
    this.stop.signal.addEventListener('abort', () => resolve(), { once: true }),
  );
  private readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

  constructor(
    private readonly dataSource: DataSource,
    private readonly history: HistoryService,
    private readonly criteria: CriteriaKeeper,
    events: ResearchEvents,
  ) {
    events.onLocalChange((_, kind) => {
      if (kind === 'RESEARCH') setTimeout(() => void this.kick(), AFTER_CHANGE_MS).unref();
    });
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.stop.abort();
    await this.running;
  }

  /** Drains the queue now (one drain at a time per instance; a kick during one runs another after it). */
  kick(): Promise<void> {
    if (this.stop.signal.aborted) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const run = (async () => {
      do {
        this.again = false;
        try {
          const start = performance.now();
          const refreshed = await refreshQueuedCategoryRollups(this.dataSource, {
            owner: this.owner,
            signal: this.stop.signal,
            yieldTo: () => Promise.race([this.criteria.fullPassesIdle(), this.stopped]),
          });
          for (const researchId of refreshed) this.history.forget(researchId);
          if (refreshed.length > 0)
            this.logger.log(
              `Category rollups of ${refreshed.join(', ')} rebuilt in ${Math.round(performance.now() - start)} ms`,
            );
        } catch (error) {
          if (!this.stop.signal.aborted)
            this.logger.warn(`Category rollups not refreshed: ${(error as Error).message}`);
        }
      } while (this.again && !this.stop.signal.aborted);
    })().finally(() => {
      this.running = null;
    });
    this.running = run;
    return run;
  }
}
