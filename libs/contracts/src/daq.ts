import { z } from 'zod';
import { describeValue, formatPath } from './describe-value';
import { FURNACE_CODE_PATTERN } from './furnace';
import { RESEARCH_ID_PATTERN, normaliseResearchId } from './research-id';

/*
 * The MQTT contract between the furnace DAQ (or the simulator) and the ingest.
 * Topic `furnace/{researchId}/data`, QoS 1, JSON payload, see the README's "The DAQ contract".
 */

export const DAQ_TOPIC_FILTER = 'furnace/+/data';

/** The topic a DAQ publishes on for one research. Throws when `researchId` is not a UUID. */
export function daqTopic(researchId: string): string {
  return `furnace/${normaliseResearchId(researchId)}/data`;
}

const DAQ_TOPIC = /^furnace\/([^/]+)\/data$/;

/**
 * The research id (lowercase) of a DAQ topic, or null when the topic is not `furnace/{uuid}/data`.
 * Messages arrive on the plain topic even through a shared subscription, so `$share/…` is not parsed.
 */
export function parseDaqTopic(topic: string): string | null {
  const match = DAQ_TOPIC.exec(topic);
  const id = match?.[1];
  if (id === undefined || !RESEARCH_ID_PATTERN.test(id)) return null;
  return id.toLowerCase();
}

/**
 * A furnace's DAQ topic, `lab/{furnaceCode}/data` (docs/behaviour.md, "Furnaces"): a DAQ configured once per furnace,
 * whose frames the ingest routes to the test running on the furnace at each frame's time. Same payload as above.
 */
export const FURNACE_TOPIC_FILTER = 'lab/+/data';

/** The topic of a furnace's DAQ. Throws when `code` is not a furnace code. */
export function furnaceTopic(code: string): string {
  if (!FURNACE_CODE_PATTERN.test(code)) throw new Error(`"${code}" is not a furnace code`);
  return `lab/${code}/data`;
}

const FURNACE_TOPIC = /^lab\/([^/]+)\/data$/;

/** The furnace code of a furnace's DAQ topic, or null when the topic is not `lab/{code}/data`. */
export function parseFurnaceTopic(topic: string): string | null {
  const code = FURNACE_TOPIC.exec(topic)?.[1];
  return code !== undefined && FURNACE_CODE_PATTERN.test(code) ? code : null;
}

/** Highest number of thermocouple channels in one frame (`thermocouples_out.length`). */
export const MAX_CHANNELS = 1024;

/** Largest accepted MQTT payload, bytes (64 KiB; 1024 channels at full precision take ~20 KiB). */
export const MAX_DAQ_PAYLOAD_BYTES = 64 * 1024;

/*
 * Physical plausibility bounds. A value outside them is a sensor or DAQ fault, not a reading.
 * A thermocouple channel outside them is a broken thermocouple (an open circuit reads over-range,
 * e.g. 3276.7): that channel becomes null and its thermo_id is listed in the frame's `faults`; the
 * frame is kept. Any other field outside them refuses the whole frame (dead-lettered by the ingest).
 * - temperatures (`pk`, `thermocouples_out`): -273.15 °C (absolute zero) to 3000 °C (far above any
 *   furnace: the ISO 834 curve reaches ~1150 °C after 6 h; thermocouple types top out near 2300 °C);
 * - `radiance`: -100 to 10 000 kW/m² (a black body at 3000 °C emits ~6 500 kW/m²; a little below
 *   zero is allowed for the zero drift of radiometers);
 * - `pressure`: -200 000 to 200 000 Pa (furnace pressure is tens of Pa relative to ambient; the
 *   range also covers a DAQ that reports absolute pressure, ~101 kPa);
 * - `time`: -1 h to 30 days in seconds (a fire test lasts hours; a larger value is a broken clock;
 *   the DAQ may send frames before ignition, with negative time, from which T0 is taken).
 */
export const DAQ_BOUNDS = Object.freeze({
  temperature: Object.freeze({ min: -273.15, max: 3000, unit: '°C' }),
  radiance: Object.freeze({ min: -100, max: 10_000, unit: 'kW/m²' }),
  pressure: Object.freeze({ min: -200_000, max: 200_000, unit: 'Pa' }),
  time: Object.freeze({ min: -3600, max: 30 * 24 * 3600, unit: 's' }),
});

interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly unit: string;
}

function outOfRange(bounds: Bounds) {
  return (issue: { input?: unknown }): string =>
    `${String(issue.input)} is outside the plausible range ${bounds.min}..${bounds.max} ${bounds.unit}`;
}

function boundedNumber(bounds: Bounds, expected: string) {
  // z.number() refuses NaN and ±Infinity by itself.
  return z
    .number({
      error: (issue) =>
        issue.input === undefined ? 'required' : `expected ${expected}, got ${describeValue(issue.input)}`,
    })
    .min(bounds.min, { error: outOfRange(bounds) })
    .max(bounds.max, { error: outOfRange(bounds) });
}

/** A reading: a number within its bounds, or null where the DAQ has no value for it. */
function reading(bounds: Bounds) {
  return boundedNumber(bounds, 'number or null').nullable();
}

/** A thermocouple channel: any finite number (range checked by flagFaultyChannels) or null. */
const channelReading = z
  .number({ error: (issue) => `expected number or null, got ${describeValue(issue.input)}` })
  .nullable();

/**
 * Nulls each thermocouple channel outside DAQ_BOUNDS.temperature and lists its thermo_id in `faults`
 * (merged with any the payload carried, ascending, omitted when empty). Idempotent, so a payload
 * parsed again downstream (bus, live socket) keeps its faults.
 */
function flagFaultyChannels<
  T extends { thermocouples_out?: (number | null)[] | undefined; faults?: number[] | undefined },
>(payload: T): T {
  const channels = payload.thermocouples_out;
  let faults: Set<number> | null = payload.faults && payload.faults.length > 0 ? new Set(payload.faults) : null;
  if (channels) {
    const { min, max } = DAQ_BOUNDS.temperature;
    for (let i = 0; i < channels.length; i++) {
      const v = channels[i];
      if (v !== null && v !== undefined && (v < min || v > max)) {
        channels[i] = null;
        (faults ??= new Set()).add(i + 1);
      }
    }
  }
  if (faults) payload.faults = [...faults].sort((a, b) => a - b);
  else delete payload.faults;
  return payload;
}

export const daqPayloadSchema = z
  .object(
    {
      /** Seconds since the test started. */
      time: boundedNumber(DAQ_BOUNDS.time, 'number'),
      /** kW/m². */
      radiance: reading(DAQ_BOUNDS.radiance).optional(),
      /** Pa. */
      pressure: reading(DAQ_BOUNDS.pressure).optional(),
      /** Mean furnace temperature, °C. */
      pk: reading(DAQ_BOUNDS.temperature).optional(),
      /**
       * °C; index i is thermocouple `thermo_id = i + 1`; null where a channel has no reading. Any finite
       * number is accepted here: a channel outside DAQ_BOUNDS.temperature is nulled and flagged below.
       */
      thermocouples_out: z
        .array(channelReading, {
          error: (issue) => `expected array, got ${describeValue(issue.input)}`,
        })
        .max(MAX_CHANNELS, {
          error: (issue) =>
            `${Array.isArray(issue.input) ? issue.input.length : 'too many'} channels, at most ${MAX_CHANNELS}`,
        })
        .optional(),
      /** The DAQ's clock, ISO 8601 with `Z` or an offset. */
      ts: z.iso
        .datetime({
          offset: true,
          error: (issue) =>
            typeof issue.input === 'string'
              ? `"${truncate(issue.input, 40)}" is not an ISO 8601 date-time with offset`
              : `expected ISO 8601 date-time string, got ${describeValue(issue.input)}`,
        })
        .optional(),
      /**
       * thermo_ids whose channel was out of range (its value nulled), ascending; omitted when none.
       * Set by the parse below; a DAQ that detects a broken thermocouple itself may send it too.
       */
      faults: z
        .array(z.int().min(1).max(MAX_CHANNELS), {
          error: (issue) => `expected array of thermo_ids, got ${describeValue(issue.input)}`,
        })
        .max(MAX_CHANNELS)
        .optional(),
    },
    {
      error: (issue) => `expected a JSON object, got ${describeValue(issue.input)}`,
    },
  )
  .transform(flagFaultyChannels);
// Unknown fields are stripped (z.object's default): a newer DAQ may send more than we read.

export type DaqPayload = z.output<typeof daqPayloadSchema>;

export type DaqRejectReason = 'malformed_json' | 'invalid_payload' | 'too_many_channels' | 'too_large';

export type DaqParseResult =
  | { readonly ok: true; readonly payload: DaqPayload }
  | { readonly ok: false; readonly reason: DaqRejectReason; readonly message: string };

// Stateless in non-streaming use, so one instance serves every message.
const utf8 = new TextDecoder('utf-8', { fatal: true });
const utf8Encoder = new TextEncoder();

function byteLength(input: Uint8Array | string): number {
  if (typeof input !== 'string') return input.byteLength;
  // A UTF-16 code unit takes 1..3 UTF-8 bytes: encode only when the bounds cannot decide.
  if (input.length > MAX_DAQ_PAYLOAD_BYTES || input.length * 3 <= MAX_DAQ_PAYLOAD_BYTES) return input.length;
  return utf8Encoder.encode(input).byteLength;
}

const MAX_ISSUES_IN_MESSAGE = 3;

function reject(reason: DaqRejectReason, message: string): DaqParseResult {
  return { ok: false, reason, message };
}

/**
 * Validates one MQTT message. Never throws: every failure is a result with a reason
 * (for counters) and a short message naming the field (for the dead-letter log).
 */
export function parseDaqMessage(input: Uint8Array | string): DaqParseResult {
  const size = byteLength(input);
  if (size > MAX_DAQ_PAYLOAD_BYTES) {
    return reject('too_large', `payload is ${size} bytes, at most ${MAX_DAQ_PAYLOAD_BYTES}`);
  }

  let text: string;
  if (typeof input === 'string') {
    text = input;
  } else {
    try {
      text = utf8.decode(input);
    } catch {
      return reject('malformed_json', 'payload is not valid UTF-8');
    }
  }

  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? `: ${truncate(error.message, 80)}` : '';
    return reject('malformed_json', `payload is not valid JSON${detail}`);
  }

  // Checked before the schema so that the reason is specific (and 10 000 channels are not validated).
  if (typeof json === 'object' && json !== null && 'thermocouples_out' in json) {
    const channels: unknown = json.thermocouples_out;
    if (Array.isArray(channels) && channels.length > MAX_CHANNELS) {
      return reject('too_many_channels', `thermocouples_out: ${channels.length} channels, at most ${MAX_CHANNELS}`);
    }
  }

  const result = daqPayloadSchema.safeParse(json);
  if (result.success) return { ok: true, payload: result.data };

  const issues = result.error.issues;
  const shown = issues.slice(0, MAX_ISSUES_IN_MESSAGE).map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
  if (issues.length > MAX_ISSUES_IN_MESSAGE) shown.push(`(+${issues.length - MAX_ISSUES_IN_MESSAGE} more)`);
  return reject('invalid_payload', shown.join('; '));
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
