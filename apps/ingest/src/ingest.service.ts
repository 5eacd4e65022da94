import { performance } from 'node:perf_hooks';
import { type DaqPayload, encodeBusMessage, parseDaqMessage, parseDaqTopic, researchChannel } from '@furnace/contracts';
import type { Ack } from './ack-gate';
import { FrameQueue } from './frame-queue';
import type { IngestMetrics, RefuseReason } from './metrics';
import { type DeadLetterRow, type FrameRow, frameKey, isTransientDatabaseError } from './readings.repository';
import type { ResearchDirectory, ResearchStatus } from './research-directory';

/** What the service needs from the database (ReadingsRepository; a fake in small tests). */
export interface FrameStore {
  insertFrames(frames: readonly FrameRow[]): Promise<Set<string>>;
  insertDeadLetters(rows: readonly DeadLetterRow[]): Promise<void>;
  pruneDeadLetters(keep: number): Promise<void>;
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
 * The ingest's rules: validate each DAQ message, refuse (count, dead-letter) what is not a frame
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
  private batch: Pending[] = [];
  private readonly buffer = new FrameQueue<Pending>();
  private degraded = false;
  private writing = false;
  private stopped = false;
  private stopDeadline = Infinity;
  private flushTimer: NodeJS.Timeout | null = null;
  private retryWake: (() => void) | null = null;
  private retrying: Promise<void> | null = null;
  private currentWrite: Promise<void> | null = null;
  private deadLetters: DeadLetterRow[] = [];
  private deadLetterTimer: NodeJS.Timeout | null = null;
  private deadLetterWrite: Promise<void> | null = null;
  private deadLettersSincePrune = 0;
  private readonly refusalLog = new Map<string, { at: number; count: number }>();
  private lastDropLog = 0;
  private droppedSinceLog = 0;
  private lastPublishFailureLog = 0;

  constructor(
    private readonly store: FrameStore,
    private readonly bus: FramePublisher,
    private readonly directory: ResearchDirectory,
    private readonly metrics: IngestMetrics,
    private readonly logger: IngestLog,
    options: IngestOptions = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
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
      return this.refuse('bad_topic', `topic "${truncate(topic, 120)}" is not furnace/{research id}/data`, topic, null, raw, ack);
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
    return this.batch.length + this.buffer.length;
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
    this.stopDeadline = Date.now() + timeoutMs;
    this.clearFlushTimer();
    await this.currentWrite;
    if (!this.degraded && this.batch.length > 0) await this.flush();
    if (this.retrying) {
      this.retryWake?.();
      await this.retrying;
    }
    if (this.deadLetterTimer) clearTimeout(this.deadLetterTimer);
    this.deadLetterTimer = null;
    await this.deadLetterWrite;
    if (this.deadLetters.length > 0) await this.writeDeadLetters();
    const lost = this.batch.length + this.buffer.length;
    if (lost > 0) {
      this.metrics.dropped.inc(lost);
      this.logger.error(`Stopped with ${lost} frames the database did not take: they are lost`);
    }
    return lost;
  }

  // ---------------------------------------------------------------------------------------------

  private admit(status: ResearchStatus, topic: string, researchId: string, payload: DaqPayload, raw: Buffer, ack: Ack): void {
    // Stopped during the research lookup: left unacknowledged, redelivered to the next session.
    if (this.stopped) return;
    if (status.kind === 'unknown') {
      return this.refuse('unknown_research', `research ${researchId} does not exist`, topic, researchId, raw, ack);
    }
    if (status.kind === 'known') {
      const now = Date.now();
      if (now < status.window.startAt.getTime() || now > status.window.endAt.getTime()) this.metrics.outsideWindow.inc();
    }
    if (payload.faults) this.metrics.channelFaults.inc(payload.faults.length);
    const frame: Pending = { researchId, payload, ack, receivedAt: performance.now(), arrivedAt: new Date(), published: false };
    if (this.degraded) return this.holdInBuffer(frame);
    this.batch.push(frame);
    this.updateDepth();
    if (this.batch.length >= this.options.flushFrames) this.scheduleFlush(0);
    else if (!this.flushTimer) this.scheduleFlush(this.options.flushIntervalMs);
  }

  private scheduleFlush(delayMs: number): void {
    if (this.writing) return; // the running write schedules the next one
    if (this.flushTimer && delayMs > 0) return;
    this.clearFlushTimer();
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      void this.flush();
    }, delayMs);
  }

  private clearFlushTimer(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
  }

  private flush(): Promise<void> {
    if (this.writing || this.degraded || this.batch.length === 0) return Promise.resolve();
    this.clearFlushTimer();
    this.writing = true;
    const frames = this.batch.splice(0, this.options.maxBatch);
    this.currentWrite = this.write(frames).finally(() => {
      this.writing = false;
      this.currentWrite = null;
      this.updateDepth();
      if (this.batch.length > 0 && !this.degraded && !this.stopped) {
        this.scheduleFlush(this.batch.length >= this.options.flushFrames ? 0 : this.options.flushIntervalMs);
      }
    });
    return this.currentWrite;
  }

  private async write(frames: Pending[]): Promise<void> {
    const started = performance.now();
    try {
      const inserted = await this.store.insertFrames(frames);
      this.metrics.batchWrite.observe({ outcome: 'ok' }, (performance.now() - started) / 1000);
      this.settle(frames, inserted);
    } catch (error) {
      this.metrics.batchWrite.observe({ outcome: 'error' }, (performance.now() - started) / 1000);
      if (isTransientDatabaseError(error)) this.enterDegraded(frames, error);
      else await this.writeOneByOne(frames, error);
    }
  }

  /** After a write: publish what is new, count the rest, acknowledge all. */
  private settle(frames: readonly Pending[], inserted: Set<string>): void {
    for (const frame of frames) {
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
    this.logger.warn(`A batch of ${frames.length} frames was refused (${errorMessage(cause)}); writing them one by one`);
    for (let i = 0; i < frames.length; i++) {
      const frame = frames[i]!;
      try {
        this.settle([frame], await this.store.insertFrames([frame]));
      } catch (error) {
        if (isTransientDatabaseError(error)) {
          // Already in the outage buffer's retry loop: put the rest back at its front, in order.
          if (this.degraded) this.buffer.unshiftAll(frames.slice(i));
          else this.enterDegraded(frames.slice(i), error);
          return;
        }
        const raw = Buffer.from(JSON.stringify(frame.payload));
        this.refuse('store_failed', `the database refused the frame: ${errorMessage(error)}`, `furnace/${frame.researchId}/data`, frame.researchId, raw, frame.ack);
      }
    }
  }

  private enterDegraded(frames: Pending[], error: unknown): void {
    this.degraded = true;
    this.metrics.databaseUp.set(0);
    this.logger.warn(`Database unreachable (${errorMessage(error)}): buffering frames (at most ${this.options.maxBufferedFrames}); live viewers still receive them`);
    const waiting = [...frames, ...this.batch];
    this.batch = [];
    this.clearFlushTimer();
    for (const frame of waiting) this.holdInBuffer(frame);
    this.retrying ??= this.retryLoop().finally(() => {
      this.retrying = null;
    });
  }

  private holdInBuffer(frame: Pending): void {
    if (!frame.published) this.publish(frame);
    frame.ack.release();
    this.pushBuffer(frame);
  }

  private pushBuffer(frame: Pending): void {
    this.buffer.push(frame);
    if (this.buffer.length > this.options.maxBufferedFrames) {
      // The newest frames are kept: they are the end of the test, which decides its result.
      this.buffer.drop(1);
      this.metrics.dropped.inc();
      this.droppedSinceLog++;
      const now = Date.now();
      if (now - this.lastDropLog >= this.options.refusalLogIntervalMs) {
        this.logger.error(`Outage buffer full (${this.options.maxBufferedFrames} frames): dropped ${this.droppedSinceLog} oldest frames`);
        this.lastDropLog = now;
        this.droppedSinceLog = 0;
      }
    }
    this.updateDepth();
  }

  private async retryLoop(): Promise<void> {
    let delay = this.options.retryMinMs;
    let written = 0;
    while (this.buffer.length > 0) {
      const chunk = this.buffer.peek(this.options.maxBatch);
      const started = performance.now();
      try {
        const inserted = await this.store.insertFrames(chunk);
        this.metrics.batchWrite.observe({ outcome: 'ok' }, (performance.now() - started) / 1000);
        this.buffer.drop(chunk.length);
        this.settle(chunk, inserted);
        written += chunk.length;
        delay = this.options.retryMinMs;
        this.updateDepth();
        continue;
      } catch (error) {
        this.metrics.batchWrite.observe({ outcome: 'error' }, (performance.now() - started) / 1000);
        if (!isTransientDatabaseError(error)) {
          this.buffer.drop(chunk.length);
          await this.writeOneByOne(chunk, error);
          continue;
        }
      }
      // Stopping: keep trying until the deadline, then give up (stop() counts what is left).
      if (this.stopped && Date.now() >= this.stopDeadline) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.stopped ? Math.min(delay, 250) : delay);
        this.retryWake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.retryWake = null;
      delay = Math.min(delay * 2, this.options.retryMaxMs);
    }
    this.degraded = false;
    this.metrics.databaseUp.set(1);
    this.updateDepth();
    this.logger.log(`Database reachable again: ${written} buffered frames written`);
  }

  private publish(frame: Pending): void {
    frame.published = true;
    this.metrics.publishDelay.observe((performance.now() - frame.receivedAt) / 1000);
    const message = encodeBusMessage({ type: 'frame', research_id: frame.researchId, payload: frame.payload, source: this.options.sourceId });
    this.bus.publish(researchChannel(frame.researchId), message).catch((error: unknown) => {
      this.metrics.busPublishFailed.inc();
      const now = Date.now();
      if (now - this.lastPublishFailureLog >= this.options.refusalLogIntervalMs) {
        this.lastPublishFailureLog = now;
        this.logger.warn(`Bus publish failed (${errorMessage(error)}): frames are stored but not shown live`);
      }
    });
  }

  private refuse(reason: RefuseReason, detail: string, topic: string, researchId: string | null, raw: Buffer, ack: Ack): void {
    this.metrics.refused.inc({ reason });
    this.logRefusal(reason, detail, researchId);
    this.deadLetters.push({
      topic: truncate(topic, 512),
      researchId,
      reason,
      detail: truncate(detail, 1024),
      // A copy: a slice would keep the whole received buffer alive.
      payload: Buffer.from(raw.subarray(0, this.options.deadLetterPayloadBytes)),
      payloadBytes: raw.length,
    });
    if (this.deadLetters.length > this.options.maxQueuedDeadLetters) {
      this.deadLetters.shift();
      this.metrics.deadLettersDropped.inc();
    }
    // A refused message never becomes valid: acknowledging it stops the broker redelivering it.
    ack.release();
    if (this.deadLetters.length >= 200) this.scheduleDeadLetters(0);
    else this.scheduleDeadLetters(250);
  }

  private logRefusal(reason: string, detail: string, researchId: string | null): void {
    const now = Date.now();
    const entry = this.refusalLog.get(reason);
    if (entry && now - entry.at < this.options.refusalLogIntervalMs) {
      entry.count++;
      return;
    }
    const since = entry ? ` (${entry.count + 1} since the last report)` : '';
    this.refusalLog.set(reason, { at: now, count: 0 });
    this.logger.warn(`Refused a DAQ message: ${reason}${since}${researchId ? ` for research ${researchId}` : ''}: ${truncate(detail, 300)}`);
  }

  private scheduleDeadLetters(delayMs: number): void {
    if (this.deadLetterWrite || this.stopped) return;
    if (this.deadLetterTimer && delayMs > 0) return;
    if (this.deadLetterTimer) clearTimeout(this.deadLetterTimer);
    this.deadLetterTimer = setTimeout(() => {
      this.deadLetterTimer = null;
      this.deadLetterWrite = this.writeDeadLetters().finally(() => {
        this.deadLetterWrite = null;
        if (this.deadLetters.length > 0) this.scheduleDeadLetters(this.degraded ? 1_000 : 250);
      });
    }, delayMs);
  }

  private async writeDeadLetters(): Promise<void> {
    const rows = this.deadLetters.splice(0, 500);
    try {
      await this.store.insertDeadLetters(rows);
      this.deadLettersSincePrune += rows.length;
      if (this.deadLettersSincePrune >= 500) {
        this.deadLettersSincePrune = 0;
        await this.store.pruneDeadLetters(this.options.keepDeadLetters);
      }
    } catch {
      // Kept for the next attempt (the queue stays bounded); the refusal itself is already counted.
      this.deadLetters.unshift(...rows);
      const excess = this.deadLetters.length - this.options.maxQueuedDeadLetters;
      if (excess > 0) {
        this.deadLetters.splice(0, excess);
        this.metrics.deadLettersDropped.inc(excess);
      }
    }
  }

  private updateDepth(): void {
    this.metrics.bufferDepth.set(this.batch.length + this.buffer.length);
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

