import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Bus } from '@furnace/bus';
import { researchChannel } from '@furnace/contracts';
import { BUS } from '../core/tokens';

/** All I/O of the live stream: the database (access codes, last frame) and the bus. */
@Injectable()
export class LiveRepository {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(BUS) private readonly bus: Bus,
  ) {}

  async researchExists(researchId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query('SELECT 1 FROM research WHERE id = $1', [researchId]);
    return rows.length > 0;
  }

  /** `time` of the research's latest stored frame; null before the first. */
  async lastTime(researchId: string): Promise<number | null> {
    const rows: { time: number }[] = await this.dataSource.query('SELECT "time" FROM reading WHERE research_id = $1 ORDER BY "time" DESC LIMIT 1', [researchId]);
    return rows[0]?.time ?? null;
  }

  /** Subscribes to the research's bus channel; resolves once active, with the function that ends it. */
  subscribe(researchId: string, handler: (message: string) => void): Promise<() => Promise<void>> {
    return this.bus.subscribe(researchChannel(researchId), handler);
  }
}
