import { z } from 'zod';
import { DAQ_BOUNDS, daqPayloadSchema } from './daq';
import { describeValue, formatPath } from './describe-value';
import { normaliseResearchId, researchIdSchema } from './research-id';
import type { CriteriaView } from './criteria/types';
import { alarmViewSchema } from './alarms';

/*
 * Live stream contract (WebSocket /api/v1/research/dane/stream/{researchId}), see docs/architecture.md
 * ("Boundaries and their contracts") and docs/behaviour.md §7, and the bus contract between the ingest (publisher) and the API instances (subscribers).
 */

/** Client → server heartbeat, sent on open and every HEARTBEAT_INTERVAL_MS. */
export const CLIENT_STATUS_MESSAGE = 'STATUS';
export const HEARTBEAT_INTERVAL_MS = 5000;
/** The dashboard reconnects this long after a close. */
export const RECONNECT_DELAY_MS = 5000;

export function isClientStatusMessage(data: string): boolean {
  return data.trim() === CLIENT_STATUS_MESSAGE;
}

/**
 * What staff changed; the client refetches the research (also its test profile, T0 and thermocouple
 * exclusions), its stream links, its thermocouple configs, or its observations.
 */
export const UPDATE_KINDS = ['RESEARCH', 'LIVESTREAM', 'THERMOCOUPLE', 'OBSERVATION'] as const;
export type UpdateKind = (typeof UPDATE_KINDS)[number];
export const updateKindSchema = z.enum(UPDATE_KINDS);

export const liveStatusDataSchema = z.object({
  research_id: researchIdSchema,
  /** The server's clock, ISO 8601. */
  server_time: z.iso.datetime({ offset: true }),
  /** `time` of the last frame of this research, seconds since start (negative before ignition); null before the first one. */
  last_time: z.number().min(DAQ_BOUNDS.time.min).nullable(),
});
export type LiveStatusData = z.output<typeof liveStatusDataSchema>;

export const liveStatusMessageSchema = z.object({ event: z.literal('STATUS'), data: liveStatusDataSchema });
export const liveDataMessageSchema = z.object({ event: z.literal('DATA'), data: daqPayloadSchema });
export const liveUpdateMessageSchema = z.object({ event: z.literal('UPDATE'), data: updateKindSchema });

/**
 * The criteria the server keeps for the research (docs/architecture.md, "The criteria: computed once,
 * kept, pushed"): the same object as GET /research/{id}/criteria. Checked here for the fields every
 * reader relies on; the rest is the server's CriteriaView as it is.
 */
export const criteriaViewSchema = z
  .looseObject({
    t0: z.number().nullable(),
    elapsed: z.number().nullable(),
    classification: z.string().nullable(),
    categories: z.array(z.looseObject({ type_name: z.string() })),
    failures: z.array(z.looseObject({ criterion: z.string(), time: z.number() })),
    criteria: z.looseObject({ E: z.looseObject({}), I: z.looseObject({}), W: z.looseObject({}) }),
    ended: z.boolean(),
    ignition_at: z.string().nullable(),
  })
  .transform((value) => value as unknown as CriteriaView);

/** CRITERIA: sent once when the stream opens (when the server has criteria for the research) and whenever they change. */
export const liveCriteriaMessageSchema = z.object({ event: z.literal('CRITERIA'), data: criteriaViewSchema });

/** ALARM: an alarm of the research raised, acknowledged or cleared (docs/behaviour.md, "Alarms"); staff's streams only. */
export const liveAlarmMessageSchema = z.object({ event: z.literal('ALARM'), data: alarmViewSchema });

/** Every message the server sends on the live socket. */
export const liveServerMessageSchema = z.discriminatedUnion('event', [
  liveStatusMessageSchema,
  liveDataMessageSchema,
  liveUpdateMessageSchema,
  liveCriteriaMessageSchema,
  liveAlarmMessageSchema,
]);
export type LiveServerMessage = z.output<typeof liveServerMessageSchema>;
export type LiveStatusMessage = z.output<typeof liveStatusMessageSchema>;
export type LiveDataMessage = z.output<typeof liveDataMessageSchema>;
export type LiveUpdateMessage = z.output<typeof liveUpdateMessageSchema>;
export type LiveCriteriaMessage = z.output<typeof liveCriteriaMessageSchema>;
export type LiveAlarmMessage = z.output<typeof liveAlarmMessageSchema>;
export type LiveEvent = LiveServerMessage['event'];

export function encodeLiveMessage(message: LiveServerMessage): string {
  return JSON.stringify(message);
}

export type ParseResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

/** Parses a server → client socket message (the dashboard side); never throws. */
export function parseLiveMessage(text: string): ParseResult<LiveServerMessage> {
  return parseJsonWith(liveServerMessageSchema, text);
}

// ---------------------------------------------------------------------------------------------
// Bus: the ingest publishes every accepted frame, the API publishes staff updates; every API
// instance subscribes and fans out to its sockets. One channel per research.

export const BUS_CHANNEL_PREFIX = 'research:';
/** Pattern for subscribing to every research at once (Redis PSUBSCRIBE). */
export const BUS_CHANNEL_PATTERN = `${BUS_CHANNEL_PREFIX}*`;

/** `research:{id}`; throws when `researchId` is not a UUID. */
export function researchChannel(researchId: string): string {
  return `${BUS_CHANNEL_PREFIX}${normaliseResearchId(researchId)}`;
}

/** The research id (lowercase) of a bus channel, or null. */
export function parseResearchChannel(channel: string): string | null {
  if (!channel.startsWith(BUS_CHANNEL_PREFIX)) return null;
  const parsed = researchIdSchema.safeParse(channel.slice(BUS_CHANNEL_PREFIX.length));
  return parsed.success ? parsed.data : null;
}

export const busFrameMessageSchema = z.object({
  type: z.literal('frame'),
  research_id: researchIdSchema,
  payload: daqPayloadSchema,
  /**
   * The ingest instance that published it (its MQTT client id), for diagnosis. Several instances
   * sharing the DAQ topic publish a research's frames in the order their writes commit, not the
   * DAQ's: the API forwards them as they come and the dashboard places each by its `time`.
   */
  source: z.string().max(256).optional(),
});
export const busUpdateMessageSchema = z.object({
  type: z.literal('update'),
  research_id: researchIdSchema,
  kind: updateKindSchema,
  /** Only staff's streams are told (a change to what clients are not shown: a hidden observation). */
  staff_only: z.boolean().optional(),
});
/**
 * The criteria of a research, published by the instance that keeps them (its owner) after every change:
 * what staff see and what the research's clients see (only the observations visible to clients count
 * for them). `covered_time` is the newest frame they include; `fingerprint` names the inputs they
 * were computed from (profile, markers, exclusions, T0 by hand, observations).
 */
export const busCriteriaMessageSchema = z.object({
  type: z.literal('criteria'),
  research_id: researchIdSchema,
  fingerprint: z.string().max(256),
  covered_time: z.number().nullable(),
  staff: criteriaViewSchema,
  client: criteriaViewSchema,
});
/** An alarm of the research raised, acknowledged or cleared, published by the instance that changed it; staff only. */
export const busAlarmMessageSchema = z.object({
  type: z.literal('alarm'),
  research_id: researchIdSchema,
  alarm: alarmViewSchema,
});
export const busMessageSchema = z.discriminatedUnion('type', [
  busFrameMessageSchema,
  busUpdateMessageSchema,
  busCriteriaMessageSchema,
  busAlarmMessageSchema,
]);

export type BusFrameMessage = z.output<typeof busFrameMessageSchema>;
export type BusUpdateMessage = z.output<typeof busUpdateMessageSchema>;
export type BusCriteriaMessage = z.output<typeof busCriteriaMessageSchema>;
export type BusAlarmMessage = z.output<typeof busAlarmMessageSchema>;
export type BusMessage = z.output<typeof busMessageSchema>;

/** Typed event map of the bus: message type → message. */
export interface BusEventMap {
  frame: BusFrameMessage;
  update: BusUpdateMessage;
  criteria: BusCriteriaMessage;
  alarm: BusAlarmMessage;
}
export type BusMessageType = keyof BusEventMap;

export function encodeBusMessage(message: BusMessage): string {
  return JSON.stringify(message);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Parses a message received from the bus; never throws. */
export function parseBusMessage(raw: string | Uint8Array): ParseResult<BusMessage> {
  let text: string;
  if (typeof raw === 'string') {
    text = raw;
  } else {
    try {
      text = utf8.decode(raw);
    } catch {
      return { ok: false, error: 'message is not valid UTF-8' };
    }
  }
  return parseJsonWith(busMessageSchema, text);
}

/** What a bus message becomes on the live socket; criteria go to staff or clients as they may see them. */
export function busToLiveMessage(message: BusMessage, audience: 'staff' | 'client' = 'staff'): LiveServerMessage {
  switch (message.type) {
    case 'frame':
      return { event: 'DATA', data: message.payload };
    case 'update':
      return { event: 'UPDATE', data: message.kind };
    case 'criteria':
      return { event: 'CRITERIA', data: audience === 'staff' ? message.staff : message.client };
    case 'alarm':
      return { event: 'ALARM', data: message.alarm };
  }
}

export function parseJsonWith<S extends z.ZodType>(schema: S, text: string): ParseResult<z.output<S>> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: 'message is not valid JSON' };
  }
  const result = schema.safeParse(json);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  if (issue === undefined) return { ok: false, error: `invalid message: ${describeValue(json)}` };
  return { ok: false, error: `${formatPath(issue.path).replace(/^payload$/, 'message')}: ${issue.message}` };
}
