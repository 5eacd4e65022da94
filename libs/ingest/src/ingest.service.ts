import { performance } from 'node:perf_hooks';
import {
  type DaqPayload,
  encodeBusMessage,
  parseDaqMessage,
  parseDaqTopic,
  parseFurnaceTopic,
  researchChannel,
} from '@furnace/contracts';
import type { Ack } from './ack-gate';
import { BatchWriter } from './batch-writer';
import { DeadLetterQueue, type DeadLetterStore } from './dead-letter-queue';
import type { FurnaceRoute } from './furnace-directory';
import { LogThrottle } from './log-throttle';
import type { IngestMetrics, RefuseReason } from './metrics';
import { OutageBuffer } from './outage-buffer';
import {
  type FrameRow,
  frameKey,
  isTransientDatabaseError,
  type StoredFrames,
  unassignedKey,
  type UnassignedRow,
} from './readings.repository';
import type { ResearchDirectory, ResearchStatus } from './research-directory';

/** What the service needs from the database (ReadingsRepository; a fake in small tests). */
export interface FrameStore extends DeadLetterStore {
  /** Research frames and, in the same transaction, a furnace's unassigned frames. */
  insertFrames(frames: readonly FrameRow[], unassigned?: readonly UnassignedRow[]): Promise<StoredFrames>;
}

/** Where a furnace topic's frame goes (FurnaceDirectory). */
export interface FurnaceRouter {
  route(code: string, at: number): FurnaceRoute | Promise<FurnaceRoute>;
}

/** What the service needs from the bus. */
export interface FramePublisher {
  publish(channel: string, message: string): Promise<void>;
}

export interface IngestLog {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface IngestOptions {
  /** Flush when this many frames wait. Acks wait for the write, and Mosquitto sends at most 20 unacknowledged messages by default. */
  flushFrames?: number;
  /**
   * …or this long after the first frame of a batch arrived. 0 (the default): at once when no write
   * is running; frames that arrive during a write go together in the next one (group commit).
   */
  flushIntervalMs?: number;
  /** Most frames in one INSERT. */
  maxBatch?: number;
  /** Frames held in memory while the database is unreachable. */
  maxBufferedFrames?: number;
  retryMinMs?: number;
  retryMaxMs?: number;
  /** Refused messages waiting to be written; beyond it they are counted only. */
  maxQueuedDeadLetters?: number;
  /** Rows the dead-letter table keeps. */
  keepDeadLetters?: number;
  /** Bytes of each refused payload kept. */
  deadLetterPayloadBytes?: number;
  /** A refusal reason is logged at most once per this interval, with the count since. */
  refusalLogIntervalMs?: number;
  /** This instance's name on the bus (its MQTT client id), so that the API can tell instances apart. */
  sourceId?: string;
}

interface Pending extends FrameRow {
  /** A frame of a furnace topic: its code and time; `unassigned`: no test was scheduled at that time. */
  furnace?: { code: string; at: Date; unassigned: boolean };
  ack: Ack;
  /** performance.now() at receipt. */
  receivedAt: number;
  /** Already on the bus (sent at once while the database is unreachable). */
  published: boolean;
}

const DEFAULTS: Required<IngestOptions> = {
  flushFrames: 16,
  // Waiting for a batch to fill made every frame wait: at a DAQ's 1-10 frames a second a batch is
  // one frame anyway, and under load batches form by themselves while a write runs.
  flushIntervalMs: 0,
  maxBatch: 500,
  maxBufferedFrames: 100_000,
  retryMinMs: 250,
  retryMaxMs: 5_000,
  maxQueuedDeadLetters: 1_000,
  keepDeadLetters: 10_000,
  deadLetterPayloadBytes: 8 * 1024,
  refusalLogIntervalMs: 60_000,
  sourceId: 'ingest',
};

/**
 * The ingest's rules, wiring BatchWriter (group commit), OutageBuffer (frames held while the
 * database is unreachable), DeadLetterQueue (refused messages) and LogThrottle (repeated faults): validate each DAQ message, refuse (count, dead-letter) what is not a frame
 * of a known research, store frames in batches, publish each stored frame once on its research's
 * bus channel, and acknowledge a message only once it is safe.
 *
 * Normal operation: a frame is published after its batch is committed, so whatever a viewer sees
 * live is already in the history (a viewer joining mid-test gets history up to `last_time` plus
 * the live frames after it, with no gap), and a redelivered copy is neither stored nor published
 * twice. Latency is one write (plus the one running when the frame arrived, if any): batches are
 * the frames that arrived while the previous write ran.
 *
 * Database unreachable: frames are published at once (viewers keep watching), acknowledged, and
 * held in a bounded buffer that is retried with backoff; past the bound the oldest are dropped,
 * counted and logged.
 *
 * Frames outside the research's start_at..end_at are stored like any other (counted): those times
 * are the schedule staff typed, the DAQ is the truth about when the furnace burns, and a reading
 * refused because a test started late or overran could never be taken again. The live view's
 * not-started and ended screens already keep clients from seeing them.
 */
export class IngestService {
  private readonly options: Required<IngestOptions>;
  private readonly writer: BatchWriter<Pending>;
  private readonly buffer: OutageBuffer<Pending>;
  private readonly deadLetters: DeadLetterQueue;
  private readonly refusalLog: LogThrottle;
  private readonly dropLog: LogThrottle;
  private readonly publishFailureLog: LogThrottle;
  private readonly lastArrival = new Map<string, number>();
  private degraded = false;
  private stopped = false;
  private retrying: Promise<void> | null = null;

  constructor(
    private readonly store: FrameStore,
    private readonly bus: FramePublisher,
    private readonly directory: ResearchDirectory,
    private readonly metrics: IngestMetrics,
    private readonly logger: IngestLog,
    options: IngestOptions = {},
    /** Routes the frames of furnace topics (`lab/{code}/data`); without it they are refused as of no furnace. */
    private readonly furnaces: FurnaceRouter | null = null,
  ) {
    this.options = { ...DEFAULTS, ...options };
    const o = this.options;
    this.writer = new BatchWriter<Pending>(
      { flushFrames: o.flushFrames, flushIntervalMs: o.flushIntervalMs, maxBatch: o.maxBatch },
      (frames) => this.write(frames),
      () => this.degraded,
      () => this.updateDepth(),
    );
    this.buffer = new OutageBuffer<Pending>(
      { maxFrames: o.maxBufferedFrames, maxBatch: o.maxBatch, retryMinMs: o.retryMinMs, retryMaxMs: o.retryMaxMs },
      () => this.dropped(),
    );
    this.deadLetters = new DeadLetterQueue(
      store,
      { maxQueued: o.maxQueuedDeadLetters, keep: o.keepDeadLetters },
      (count) => this.metrics.deadLettersDropped.inc(count),
      () => (this.degraded ? 1_000 : 250),
    );
    this.refusalLog = new LogThrottle(o.refusalLogIntervalMs);
    this.dropLog = new LogThrottle(o.refusalLogIntervalMs);
    this.publishFailureLog = new LogThrottle(o.refusalLogIntervalMs);
    this.metrics.databaseUp.set(1);
  }

  /**
   * Handles one MQTT message. Returns a promise only when the research must be looked up first;
   * the caller waits for it before the next message, which keeps each research's frames in order.
   * Never throws.
   */
  receive(topic: string, raw: Buffer, ack: Ack): void | Promise<void> {
    // After stop() a message is left unacknowledged: the broker redelivers it to the next session.
    if (this.stopped) return;
    this.metrics.received.inc();
    const researchId = parseDaqTopic(topic);
    if (researchId === null) {
      const code = parseFurnaceTopic(topic);
      if (code !== null) return this.receiveFurnace(topic, code, raw, ack);
      return this.refuse(
        'bad_topic',
        `topic "${truncate(topic, 120)}" is neither furnace/{research id}/data nor lab/{furnace code}/data`,
        topic,
        null,
        raw,
        ack,
      );
    }
    const parsed = parseDaqMessage(raw);
    if (!parsed.ok) return this.refuse(parsed.reason, parsed.message, topic, researchId, raw, ack);
    const status = this.directory.status(researchId);
    if (status instanceof Promise) {
      return status.then((resolved) => this.admit(resolved, topic, researchId, parsed.payload, raw, ack));
    }
    this.admit(status, topic, researchId, parsed.payload, raw, ack);
  }

  /** Frames waiting for the database (batch and outage buffer). */
  get buffered(): number {
    return this.writer.length + this.buffer.length;
  }

  get databaseReachable(): boolean {
    return !this.degraded;
  }

  /**
   * Stops taking messages and writes what it holds: the batch, then (while the database answers,
   * for at most `timeoutMs`) the outage buffer and the dead letters. Returns the frames it could
   * not write, which are lost.
   */
  async stop(timeoutMs = 5_000): Promise<number> {
    this.stopped = true;
    const deadline = Date.now() + timeoutMs;
    this.buffer.stop(deadline);
    this.writer.stop();
    await this.writer.current;
    if (!this.degraded && this.writer.length > 0) await this.writer.flush();
    if (this.retrying) {
      this.buffer.stop(deadline);
      await this.retrying;
    }
    await this.deadLetters.stop();
    const lost = this.writer.length + this.buffer.length;
    if (lost > 0) {
      this.metrics.dropped.inc(lost);
      this.logger.error(`Stopped with ${lost} frames the database did not take: they are lost`);
    }
    return lost;
  }

  // ---------------------------------------------------------------------------------------------

  /**
   * A frame of a furnace's DAQ (docs/behaviour.md, "Furnaces"): routed by its time (the DAQ's `ts`, else its arrival)
   * to the test scheduled on the furnace then, else kept as the furnace's unassigned reading; refused when no
   * furnace has the code. Returns a promise only when the furnace's schedule must be read first.
   */
  private receiveFurnace(topic: string, code: string, raw: Buffer, ack: Ack): void | Promise<void> {
    const parsed = parseDaqMessage(raw);
    if (!parsed.ok) return this.refuse(parsed.reason, parsed.message, topic, null, raw, ack);
    const payload = parsed.payload;
    const at = payload.ts !== undefined ? Date.parse(payload.ts) : this.arrival(code);
    if (!this.furnaces) return this.admitFurnace({ kind: 'unknown' }, topic, code, at, payload, raw, ack);
    const route = this.furnaces.route(code, at);
    if (route instanceof Promise) {
      return route.then((resolved) => this.admitFurnace(resolved, topic, code, at, payload, raw, ack));
    }
    this.admitFurnace(route, topic, code, at, payload, raw, ack);
  }

  /**
   * A frame without `ts` is timed by its arrival, a millisecond after the furnace's previous one at least: a burst (a
   * DAQ sending what it held while the broker was away) arrives within one millisecond, and an unassigned reading
   * is keyed by its furnace and time.
   */
  private arrival(code: string): number {
    const now = Date.now();
    const last = this.lastArrival.get(code) ?? 0;
    const at = now > last ? now : last + 1;
    if (this.lastArrival.size >= 1_000 && !this.lastArrival.has(code)) this.lastArrival.clear();
    this.lastArrival.set(code, at);
    return at;
  }

  private admitFurnace(
    route: FurnaceRoute,
    topic: string,
    code: string,
    at: number,
    payload: DaqPayload,
    raw: Buffer,
    ack: Ack,
  ): void {
    if (this.stopped) return;
    if (route.kind === 'unknown') {
      return this.refuse('unknown_furnace', `no furnace has the code "${code}"`, topic, null, raw, ack);
    }
    const research = route.kind === 'research';
    this.enqueue({
      researchId: research ? route.researchId : '',
      furnace: { code, at: new Date(at), unassigned: !research },
      payload,
      ack,
      receivedAt: performance.now(),
      arrivedAt: new Date(),
      published: false,
    });
  }

  private admit(
    status: ResearchStatus,
    topic: string,
    researchId: string,
    payload: DaqPayload,
    raw: Buffer,
    ack: Ack,
  ): void {
    // Stopped during the research lookup: left unacknowledged, redelivered to the next session.
    if (this.stopped) return;
    if (status.kind === 'unknown') {
      return this.refuse('unknown_research', `research ${researchId} does not exist`, topic, researchId, raw, ack);
    }
    if (status.kind === 'known') {
      const now = Date.now();
      if (now < status.window.startAt.getTime() || now > status.window.endAt.getTime())
        this.metrics.outsideWindow.inc();
    }
    this.enqueue({
      researchId,
      payload,
      ack,
      receivedAt: performance.now(),
      arrivedAt: new Date(),
      published: false,
    });
  }

  private enqueue(frame: Pending): void {
    if (frame.payload.faults) this.metrics.channelFaults.inc(frame.payload.faults.length);
    if (this.degraded) return this.holdInBuffer(frame);
    this.writer.add(frame);
    this.updateDepth();
  }

  /** One batch: written, then published and acknowledged; on failure buffered or written one by one. Never throws. */
  private async write(frames: Pending[]): Promise<void> {
    try {
      this.settle(frames, await this.insert(frames));
    } catch (error) {
      if (isTransientDatabaseError(error)) this.enterDegraded(frames, error);
      else await this.writeOneByOne(frames, error);
    }
  }

  private async insert(frames: readonly Pending[]): Promise<StoredFrames> {
    const started = performance.now();
    try {
      const inserted = await this.insertInto(frames);
      this.metrics.batchWrite.observe({ outcome: 'ok' }, (performance.now() - started) / 1000);
      return inserted;
    } catch (error) {
      this.metrics.batchWrite.observe({ outcome: 'error' }, (performance.now() - started) / 1000);
      throw error;
    }
  }

  /** The batch to the store: a furnace's unassigned frames apart from the research frames. */
  private insertInto(frames: readonly Pending[]): Promise<StoredFrames> {
    if (!frames.some((f) => f.furnace?.unassigned)) return this.store.insertFrames(frames);
    const research: Pending[] = [];
    const unassigned: UnassignedRow[] = [];
    for (const f of frames) {
      if (f.furnace?.unassigned) {
        unassigned.push({ furnaceCode: f.furnace.code, at: f.furnace.at, payload: f.payload, arrivedAt: f.arrivedAt });
      } else {
        research.push(f);
      }
    }
    return this.store.insertFrames(research, unassigned);
  }

  /**
   * After a write: publish what is new, count the rest, acknowledge all. A frame of an approved research was not
   * written: its record is frozen (docs/behaviour.md, "The permanent record"), so it is refused like a frame of no
   * research, to the dead letters, and the others of its batch are not held back for it.
   */
  private settle(frames: readonly Pending[], { inserted, approved, unassigned }: StoredFrames): void {
    for (const frame of frames) {
      if (frame.furnace?.unassigned) {
        // delete(): a frame sent twice within one batch is counted once.
        if (unassigned?.delete(unassignedKey(frame.furnace.code, frame.furnace.at.getTime()))) {
          this.metrics.unassigned.inc();
        } else {
          this.metrics.duplicates.inc();
        }
        frame.ack.release();
        continue;
      }
      const revision = approved.get(frame.researchId);
      if (revision !== undefined && frame.furnace) {
        // Approved since the furnace's schedule was read: the frame is kept as the furnace's unassigned reading.
        this.enqueue({ ...frame, furnace: { ...frame.furnace, unassigned: true } });
        continue;
      }
      if (revision !== undefined) {
        const raw = Buffer.from(JSON.stringify(frame.payload));
        const detail = `research ${frame.researchId} is approved (revision ${revision}): its readings are frozen until a superuser reopens it`;
        this.refuse('research_approved', detail, `furnace/${frame.researchId}/data`, frame.researchId, raw, frame.ack);
        continue;
      }
      // delete(): a frame sent twice within one batch is published once.
      if (inserted.delete(frameKey(frame.researchId, frame.payload.time))) {
        this.metrics.stored.inc();
        if (!frame.published) this.publish(frame);
      } else {
        this.metrics.duplicates.inc();
      }
      frame.ack.release();
    }
  }

  /**
   * The database refused a batch for something in it (not an outage): write the frames one by one
   * and dead-letter those it refuses, so one bad value cannot block the rest.
   */
  private async writeOneByOne(frames: Pending[], cause: unknown): Promise<void> {
    this.logger.warn(
      `A batch of ${frames.length} frames was refused (${errorMessage(cause)}); writing them one by one`,
    );
    for (let i = 0; i < frames.length; i++) {
      const frame = frames[i]!;
      try {
        this.settle([frame], await this.insertInto([frame]));
      } catch (error) {
        if (isTransientDatabaseError(error)) {
          // Already in the outage buffer's retry loop: put the rest back at its front, in order.
          if (this.degraded) this.buffer.unshiftAll(frames.slice(i));
          else this.enterDegraded(frames.slice(i), error);
          return;
        }
        const raw = Buffer.from(JSON.stringify(frame.payload));
        this.refuse(
          'store_failed',
          `the database refused the frame: ${errorMessage(error)}`,
          frame.furnace ? `lab/${frame.furnace.code}/data` : `furnace/${frame.researchId}/data`,
          frame.furnace?.unassigned ? null : frame.researchId,
          raw,
          frame.ack,
        );
      }
    }
  }

  private enterDegraded(frames: Pending[], error: unknown): void {
    this.degraded = true;
    this.metrics.databaseUp.set(0);
    this.logger.warn(
      `Database unreachable (${errorMessage(error)}): buffering frames (at most ${this.options.maxBufferedFrames}); live viewers still receive them`,
    );
    for (const frame of [...frames, ...this.writer.takeAll()]) this.holdInBuffer(frame);
    this.retrying ??= this.retry().finally(() => {
      this.retrying = null;
    });
  }

  private holdInBuffer(frame: Pending): void {
    if (!frame.published) this.publish(frame);
    frame.ack.release();
    this.buffer.push(frame);
    this.updateDepth();
  }

  private dropped(): void {
    this.metrics.dropped.inc();
    const report = this.dropLog.event();
    if (report)
      this.logger.error(
        `Outage buffer full (${this.options.maxBufferedFrames} frames): dropped ${report.events} oldest frames`,
      );
  }

  private async retry(): Promise<void> {
    let written = 0;
    const drained = await this.buffer.drain({
      write: async (chunk) => this.settle(chunk, await this.insert(chunk)),
      written: (chunk) => {
        written += chunk.length;
        this.updateDepth();
      },
      isTransient: isTransientDatabaseError,
      refused: (chunk, error) => this.writeOneByOne(chunk, error),
    });
    // Given up while stopping: stop() counts what is left.
    if (!drained) return;
    this.degraded = false;
    this.metrics.databaseUp.set(1);
    this.updateDepth();
    this.logger.log(`Database reachable again: ${written} buffered frames written`);
  }

  private publish(frame: Pending): void {
    frame.published = true;
    // An unassigned reading belongs to no test: no viewer watches it.
    if (frame.furnace?.unassigned) return;
    this.metrics.publishDelay.observe((performance.now() - frame.receivedAt) / 1000);
    const message = encodeBusMessage({
      type: 'frame',
      research_id: frame.researchId,
      payload: frame.payload,
      source: this.options.sourceId,
    });
    this.bus.publish(researchChannel(frame.researchId), message).catch((error: unknown) => {
      this.metrics.busPublishFailed.inc();
      if (this.publishFailureLog.event())
        this.logger.warn(`Bus publish failed (${errorMessage(error)}): frames are stored but not shown live`);
    });
  }

  private refuse(
    reason: RefuseReason,
    detail: string,
    topic: string,
    researchId: string | null,
    raw: Buffer,
    ack: Ack,
  ): void {
    this.metrics.refused.inc({ reason });
    const report = this.refusalLog.event(reason);
    if (report) {
      const since = report.first ? '' : ` (${report.events} since the last report)`;
      this.logger.warn(
        `Refused a DAQ message: ${reason}${since}${researchId ? ` for research ${researchId}` : ''}: ${truncate(detail, 300)}`,
      );
    }
    // A refused message never becomes valid: acknowledging it stops the broker redelivering it.
    ack.release();
    this.deadLetters.add({
      topic: truncate(topic, 512),
      researchId,
      reason,
      detail: truncate(detail, 1024),
      // A copy: a slice would keep the whole received buffer alive.
      payload: Buffer.from(raw.subarray(0, this.options.deadLetterPayloadBytes)),
      payloadBytes: raw.length,
    });
  }

  private updateDepth(): void {
    this.metrics.bufferDepth.set(this.writer.length + this.buffer.length);
  }
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function errorMessage(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return errorMessage(error.errors[0]);
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
