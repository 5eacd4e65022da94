import { z } from 'zod';
import { researchIdSchema } from './research-id';

/*
 * Alarms the server raises for a running test (docs/behaviour.md, "Alarms"): the shape staff read from
 * GET /research/{id}/alarms, the live stream's ALARM message (staff only) and the webhook's body carry.
 */

/**
 * silence: no frame for 3 scan periods; thermocouple: a thermocouple faulted or flagged suspect (subject: its id);
 * deviation: d_e outside its tolerance; pressure: the furnace pressure outside its band; forecast: a criterion
 * forecast to fail within 5 minutes (subject: the criterion); failure: a criterion failed (subject: the
 * criterion); overrun: the test's end time passed while its frames still arrive.
 */
export const ALARM_KINDS = [
  'silence',
  'thermocouple',
  'deviation',
  'pressure',
  'forecast',
  'failure',
  'overrun',
] as const;
export type AlarmKind = (typeof ALARM_KINDS)[number];

export const alarmViewSchema = z.object({
  id: z.string(),
  research_id: researchIdSchema,
  furnace_id: z.string().nullable(),
  kind: z.enum(ALARM_KINDS),
  /** A thermocouple's id, a criterion; '' for the test as a whole. */
  subject: z.string(),
  /** ISO 8601. */
  raised_at: z.string(),
  /** What raised it: the value and its limit, the last frame's time, … */
  details: z.record(z.string(), z.unknown()),
  acknowledged_at: z.string().nullable(),
  acknowledged_by: z.string().nullable(),
  cleared_at: z.string().nullable(),
  last_notified_at: z.string().nullable(),
  notify_count: z.number().int(),
});
export type AlarmView = z.output<typeof alarmViewSchema>;
