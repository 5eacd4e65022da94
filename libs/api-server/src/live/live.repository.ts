import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Bus } from '@furnace/bus';
import { type DaqPayload, isUuid, researchChannel } from '@furnace/contracts';
import { lastFrameTime, queryOn } from '@furnace/db';
import { FRAMES_SINCE_SQL } from './live.queries';
import { batched } from '../core/batched';
import { BUS } from '../core/tokens';

/** All I/O of the live stream: the database (access codes, last frame) and the bus. */
@Injectable()
export class LiveRepository {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(BUS) private readonly bus: Bus,
  ) {}

  /** Which of the researches asked for in one turn exist, in one statement (core/batched.ts: a crowd's streams open at once). */
  private readonly existing = batched(async (ids: readonly string[]) => {
    const rows: { id: string }[] = await this.dataSource.query('SELECT id FROM research WHERE id = ANY($1::uuid[])', [
      ids,
    ]);
    const found = new Set(rows.map((r) => r.id));
    return ids.map((id) => found.has(id));
  });

  async researchExists(researchId: string): Promise<boolean> {
    return isUuid(researchId) && this.existing(researchId.toLowerCase());
  }

  /** `time` of the research's latest stored frame; null before the first. */
  lastTime(researchId: string): Promise<number | null> {
    return lastFrameTime(queryOn(this.dataSource), researchId);
  }

  /** The research's stored frames after `since` (all when null), in time order, at most `limit`. */
  async framesSince(researchId: string, since: number | null, limit: number): Promise<DaqPayload[]> {
    const rows: {
      time: number;
      radiance: number | null;
      pressure: number | null;
      pk: number | null;
      thermocouples: (number | null)[] | null;
    }[] = await this.dataSource.query(FRAMES_SINCE_SQL, [researchId, since, limit]);
    return rows.map((r) => {
      const payload: DaqPayload = { time: r.time };
      if (r.radiance !== null) payload.radiance = r.radiance;
      if (r.pressure !== null) payload.pressure = r.pressure;
      if (r.pk !== null) payload.pk = r.pk;
      if (r.thermocouples !== null) payload.thermocouples_out = r.thermocouples;
      return payload;
    });
  }

  /** Called after the bus lost and regained its server. */
  onBusReconnect(listener: () => void): void {
    this.bus.onReconnect(listener);
  }

  /** Subscribes to the research's bus channel; resolves once active, with the function that ends it. */
  subscribe(researchId: string, handler: (message: string) => void): Promise<() => Promise<void>> {
    return this.bus.subscribe(researchChannel(researchId), handler);
  }
}
