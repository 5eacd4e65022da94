import type { DeadLetterRow } from './readings.repository';

/** Where refused messages are kept for an operator (ReadingsRepository; a fake in small tests). */
export interface DeadLetterStore {
  insertDeadLetters(rows: readonly DeadLetterRow[]): Promise<void>;
  pruneDeadLetters(keep: number): Promise<void>;
}

export interface DeadLetterQueueOptions {
  /** Rows waiting to be written; beyond it the oldest are dropped (the refusal itself stays counted). */
  maxQueued: number;
  /** Rows the dead-letter table keeps; older ones are pruned every 500 written. */
  keep: number;
}

/** Rows in one write. */
const WRITE_ROWS = 500;
/** A write starts at once when this many wait, else after a short pause that gathers a burst. */
const WRITE_AT_ONCE = 200;
const GATHER_MS = 250;

/**
 * Refused DAQ messages on their way to the dead-letter table: queued in memory (bounded), written
 * in the background by its own timer, kept for another attempt when the database fails the write,
 * and the table pruned to its last `keep` rows.
 */
export class DeadLetterQueue {
  private rows: DeadLetterRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;
  private sincePrune = 0;
  private stopped = false;

  constructor(
    private readonly store: DeadLetterStore,
    private readonly options: DeadLetterQueueOptions,
    /** Rows dropped unwritten (the queue was full). */
    private readonly onDropped: (count: number) => void,
    /** Pause before retrying a failed write (longer while the database is known to be down). */
    private readonly retryDelayMs: () => number = () => GATHER_MS,
  ) {}

  get length(): number {
    return this.rows.length;
  }

  add(row: DeadLetterRow): void {
    this.rows.push(row);
    if (this.rows.length > this.options.maxQueued) {
      this.rows.shift();
      this.onDropped(1);
    }
    this.schedule(this.rows.length >= WRITE_AT_ONCE ? 0 : GATHER_MS);
  }

  /** Stops the timer and writes what is queued (one attempt). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.writing;
    if (this.rows.length > 0) await this.write();
  }

  private schedule(delayMs: number): void {
    if (this.writing || this.stopped) return;
    if (this.timer && delayMs > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.writing = this.write().finally(() => {
        this.writing = null;
        if (this.rows.length > 0) this.schedule(this.retryDelayMs());
      });
    }, delayMs);
  }

  private async write(): Promise<void> {
    const rows = this.rows.splice(0, WRITE_ROWS);
    try {
      await this.store.insertDeadLetters(rows);
      this.sincePrune += rows.length;
      if (this.sincePrune >= WRITE_ROWS) {
        this.sincePrune = 0;
        await this.store.pruneDeadLetters(this.options.keep);
      }
    } catch {
      // Kept for the next attempt, the queue still bounded.
      this.rows.unshift(...rows);
      const excess = this.rows.length - this.options.maxQueued;
      if (excess > 0) {
        this.rows.splice(0, excess);
        this.onDropped(excess);
      }
    }
  }
}
