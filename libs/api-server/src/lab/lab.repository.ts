import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LAB_SCHEDULE_SQL } from './lab.queries';

/** One furnace and its schedule around now. */
export interface FurnaceSchedule {
  furnace: { id: string; name: string; code: string; scan_period_s: number };
  running: { research_id: string; name: string; start_at: string; end_at: string } | null;
  next: { research_id: string; name: string; start_at: string } | null;
}

interface Row {
  id: string;
  name: string;
  code: string;
  scan_period_s: number;
  running_id: string | null;
  running_name: string | null;
  running_start_at: Date | string | null;
  running_end_at: Date | string | null;
  next_id: string | null;
  next_name: string | null;
  next_start_at: Date | string | null;
}

const isoOf = (value: Date | string): string => new Date(value).toISOString();

@Injectable()
export class LabRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Every furnace (by code) with its running and next test, in one statement. */
  async schedule(): Promise<FurnaceSchedule[]> {
    const rows: Row[] = await this.dataSource.query(LAB_SCHEDULE_SQL);
    return rows.map((r) => ({
      furnace: { id: r.id, name: r.name, code: r.code, scan_period_s: Number(r.scan_period_s) },
      running:
        r.running_id && r.running_start_at && r.running_end_at
          ? {
              research_id: r.running_id,
              name: r.running_name ?? '',
              start_at: isoOf(r.running_start_at),
              end_at: isoOf(r.running_end_at),
            }
          : null,
      next:
        r.next_id && r.next_start_at
          ? { research_id: r.next_id, name: r.next_name ?? '', start_at: isoOf(r.next_start_at) }
          : null,
    }));
  }
}
