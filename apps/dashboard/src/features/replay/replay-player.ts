import type { HistoryDto } from '@furnace/api-client';
import type { CriteriaSnapshot, DaqPayload, FrameSource } from '@furnace/contracts';
import type { CriteriaInputs } from '../criteria/live-criteria';
import * as clocks from './replay-clock';
import { ReplayCriteria } from './replay-criteria';
import { type FetchWindow, ReplayWindows, WINDOW_SECONDS } from './replay-windows';

/** The shown frame of a replay: `latest()` is the frame of the moment, earlier or later than the one before. */
function createShownFrame(): FrameSource & { show(frame: DaqPayload | null): void } {
  const newest = new Set<(frame: DaqPayload) => void>();
  const all = new Set<(frame: DaqPayload) => void>();
  const gaps = new Set<() => void>();
  let shown: DaqPayload | null = null;
  const add = <T>(set: Set<T>, listener: T) => {
    set.add(listener);
    return () => void set.delete(listener);
  };
  return {
    subscribe: (listener) => add(newest, listener),
    subscribeAll: (listener) => add(all, listener),
    subscribeGap: (listener) => add(gaps, listener),
    latest: () => shown,
    show(frame) {
      if (frame === shown) return;
      // A step back is a jump: whoever gathers every frame starts over.
      if (frame && shown && frame.time < shown.time) for (const l of gaps) l();
      shown = frame;
      if (!frame) return;
      for (const l of all) l(frame);
      for (const l of newest) l(frame);
    },
  };
}

/** The criteria snapshot is taken at most this often while playing (ms); at once after a seek. */
const SNAPSHOT_MS = 250;

export interface ReplayState {
  clock: clocks.ReplayClock;
  /** The moment's frame is being read. */
  loading: boolean;
  error: unknown;
  criteria: CriteriaSnapshot | null;
}

/**
 * The replay of a stored test (docs/behaviour.md §10): a clock over the test, the frames read window by
 * window, and one FrameSource (`frames`) whose newest frame is the moment's, which the live view's
 * canvas, side panel and the charts' cursor draw as they draw a live frame. Drawing happens at
 * most once per display frame (requestAnimationFrame), showing the newest frame the clock reached.
 */
export class ReplayPlayer {
  readonly frames = createShownFrame();
  private readonly windows: ReplayWindows;
  private readonly listeners = new Set<() => void>();
  private state: ReplayState;
  private criteria: ReplayCriteria | null = null;
  private raf: number | null = null;
  private lastTick: number | null = null;
  private lastSnapshot = 0;
  private snapshotDue = false;
  private stopWindows: () => void;

  constructor(
    start: number,
    end: number,
    fetchWindow: FetchWindow,
    private readonly schedule: { request: (cb: (now: number) => void) => number; cancel: (id: number) => void } = {
      request: (cb) => requestAnimationFrame(cb),
      cancel: (id) => cancelAnimationFrame(id),
    },
  ) {
    this.windows = new ReplayWindows(start, fetchWindow);
    this.state = { clock: clocks.createClock(start, end), loading: true, error: null, criteria: null };
    this.stopWindows = this.windows.subscribe(() => this.wake());
    this.wake();
  }

  /** The state for React (a new object on every change). */
  getState = (): ReplayState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The criteria engine's inputs and history are known: the side panel shows the criteria of the moment. */
  setCriteria(inputs: CriteriaInputs | null, history: HistoryDto | null): void {
    this.criteria = inputs ? new ReplayCriteria(inputs, history) : null;
    this.lastSnapshot = 0;
    this.snapshotDue = true;
    this.wake();
  }

  seek(time: number): void {
    this.update({ clock: clocks.seek(this.state.clock, time) });
  }

  play(): void {
    this.update({ clock: clocks.play(this.state.clock) });
  }

  pause(): void {
    this.update({ clock: clocks.pause(this.state.clock) });
  }

  setSpeed(speed: clocks.ReplaySpeed): void {
    this.update({ clock: clocks.setSpeed(this.state.clock, speed) });
  }

  setBounds(start: number, end: number): void {
    if (start === this.state.clock.start && end === this.state.clock.end) return;
    this.update({ clock: clocks.setBounds(this.state.clock, start, end) });
  }

  dispose(): void {
    if (this.raf !== null) this.schedule.cancel(this.raf);
    this.raf = null;
    this.stopWindows();
    this.listeners.clear();
  }

  private update(patch: Partial<ReplayState>): void {
    this.windows.retryFailed();
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
    this.wake();
  }

  /** One draw on the next display frame (and one per display frame while playing). */
  private wake(): void {
    if (this.raf === null) this.raf = this.schedule.request(this.step);
  }

  private readonly step = (now: number): void => {
    this.raf = null;
    let clock = this.state.clock;
    const index = this.windows.indexOf(clock.time);
    this.windows.ensure(index);
    const frame = this.windows.frameAt(clock.time);
    // The clock waits while the moment's window is read (a stall shows as loading, never as a skip).
    if (clock.playing && this.lastTick !== null && frame !== undefined) clock = clocks.tick(clock, now - this.lastTick);
    // A window that could not be read stops the playback (play again to retry).
    if (frame === undefined && this.windows.hasFailed(index)) clock = clocks.pause(clock);
    this.lastTick = clock.playing ? now : null;
    if (clock.playing) this.windows.ensure(this.windows.indexOf(clock.time) + 1);

    const shown = clock === this.state.clock ? frame : this.windows.frameAt(clock.time);
    if (shown) this.frames.show(shown);
    const criteria = this.moveCriteria(clock, shown, now);
    const loading = shown === undefined;
    const error = this.windows.error();
    if (
      clock !== this.state.clock ||
      loading !== this.state.loading ||
      error !== this.state.error ||
      criteria !== this.state.criteria
    ) {
      this.state = { ...this.state, clock, loading, error, criteria };
      for (const l of this.listeners) l();
    }
    if (clock.playing) this.wake();
  };

  private moveCriteria(clock: clocks.ReplayClock, shown: DaqPayload | null | undefined, now: number) {
    const criteria = this.criteria;
    if (!criteria || !shown) return this.state.criteria;
    if (shown.time !== criteria.reached()) this.moveEngine(criteria, shown);
    if (!this.snapshotDue || (clock.playing && now - this.lastSnapshot < SNAPSHOT_MS)) return this.state.criteria;
    this.lastSnapshot = now;
    this.snapshotDue = false;
    return criteria.snapshot();
  }

  private moveEngine(criteria: ReplayCriteria, shown: DaqPayload): void {
    const before = criteria.reached();
    const index = this.windows.indexOf(shown.time);
    const windowStart = this.windows.startOf(index);
    criteria.moveTo(
      shown.time,
      // Only forward within the windows at hand; a longer jump starts over from the history.
      shown.time > criteria.reached() && shown.time - criteria.reached() <= 2 * WINDOW_SECONDS
        ? this.windows.framesBetween(criteria.reached(), shown.time)
        : null,
      windowStart,
      () => this.windows.framesUpTo(index, shown.time),
    );
    if (criteria.reached() !== before) this.snapshotDue = true;
  }
}
