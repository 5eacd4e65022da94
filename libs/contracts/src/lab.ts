import { z } from 'zod';
import { parseJsonWith, type ParseResult } from './live';

/*
 * The lab overview's stream (WebSocket /api/v1/lab/stream, staff only; docs/behaviour.md §18 and §7): one tile per
 * furnace. The server sends LAB (every tile) when the stream opens and whenever the lab's furnaces or schedule
 * change, and TILE (one furnace's tile, whole) when something it shows changes — at most once a second per tile.
 * The browser reckons the running clocks (elapsed time, the last frame's age) from `server_time` and the instants
 * a tile carries, so nothing is sent just because time passes.
 */

const iso = z.iso.datetime({ offset: true });

const labTileSchema = z.object({
  furnace: z.object({
    id: z.string(),
    name: z.string(),
    code: z.string(),
    /** Seconds between two frames of the furnace's DAQ. */
    scan_period_s: z.number(),
  }),
  /** The test scheduled on the furnace now (start_at ≤ now < end_at), or null: the furnace is idle. */
  running: z
    .object({
      research_id: z.string(),
      name: z.string(),
      start_at: iso,
      end_at: iso,
      /** Wall-clock time of ignition (time 0), from the criteria; null before a frame dates it. */
      ignition_at: iso.nullable(),
    })
    .nullable(),
  /**
   * When a frame of the running test last reached the API (wall clock, the server's), or, before one has
   * since the API started, the newest frame's time as the criteria date it; null: none yet.
   */
  last_frame_at: iso.nullable(),
  /** The furnace's d_e (%) at the newest frame against its tolerance (±%, null for t ≤ 5 min); null: not known. */
  deviation: z
    .object({ d_e: z.number().nullable(), tolerance: z.number().nullable(), ok: z.boolean().nullable() })
    .nullable(),
  /**
   * The category with the highest max rise of those the max criterion counts, against the max limit (K above T0;
   * on the absolute basis `limit_k` is null and `limit_c` is the threshold); null: not known.
   */
  hottest: z
    .object({
      type_name: z.string(),
      rise_k: z.number().nullable(),
      max_c: z.number().nullable(),
      limit_k: z.number().nullable(),
      limit_c: z.number().nullable(),
    })
    .nullable(),
  /** The soonest failure the criteria forecast (within 15 minutes), or null. */
  forecast: z.object({ criterion: z.string(), eta_s: z.number() }).nullable(),
  /** Alarms raised and not cleared on the furnace's running test (docs/behaviour.md §17). */
  alarms: z.object({ open: z.number().int().min(0) }),
  /** Live viewers of the running test, on every API instance (0 when idle). */
  viewers: z.number().int().min(0),
  /** The next test scheduled on the furnace after now, or null. */
  next: z.object({ research_id: z.string(), name: z.string(), start_at: iso }).nullable(),
});
export type LabTile = z.output<typeof labTileSchema>;

const labSnapshotMessageSchema = z.object({
  event: z.literal('LAB'),
  data: z.object({ server_time: iso, tiles: z.array(labTileSchema) }),
});
const labTileMessageSchema = z.object({
  event: z.literal('TILE'),
  data: z.object({ server_time: iso, tile: labTileSchema }),
});
const labServerMessageSchema = z.discriminatedUnion('event', [labSnapshotMessageSchema, labTileMessageSchema]);
export type LabServerMessage = z.output<typeof labServerMessageSchema>;

export function encodeLabMessage(message: LabServerMessage): string {
  return JSON.stringify(message);
}

/** Parses a lab overview message (the dashboard side); never throws. */
export function parseLabMessage(text: string): ParseResult<LabServerMessage> {
  return parseJsonWith(labServerMessageSchema, text);
}

/**
 * How long without a frame a running test's DAQ is silent (docs/behaviour.md §17): `missedScans` of its scan periods,
 * and never less than `minSeconds` — a fast DAQ's frames reach the server in bursts when it is busy, and the overview's
 * tiles are sent once a second. The server's alarm and the overview's tile judge by the same rule.
 */
export const SILENCE_RULE = { missedScans: 3, minSeconds: 2 } as const;

export function silenceSeconds(
  scanPeriodS: number,
  rule: { missedScans: number; minSeconds: number } = SILENCE_RULE,
): number {
  return Math.max(rule.missedScans * scanPeriodS, rule.minSeconds);
}
