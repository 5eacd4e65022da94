/** The replay speeds: test seconds per second of playback (docs/behaviour.md §10). */
export const REPLAY_SPEEDS = [1, 10, 60] as const;
export type ReplaySpeed = (typeof REPLAY_SPEEDS)[number];

/** Where the replay is in the test, in the test's seconds (its `time`), and how it moves. */
export interface ReplayClock {
  /** The first and last stored frames' times: the slider's ends. */
  readonly start: number;
  readonly end: number;
  readonly time: number;
  readonly playing: boolean;
  readonly speed: ReplaySpeed;
}

export function createClock(start: number, end: number): ReplayClock {
  return { start, end: Math.max(start, end), time: start, playing: false, speed: 1 };
}

function clamp(clock: ReplayClock, time: number): number {
  return Math.min(clock.end, Math.max(clock.start, time));
}

/** `elapsedMs` of playback later: the time moves by speed × elapsed; at the end of the test it stops there. */
export function tick(clock: ReplayClock, elapsedMs: number): ReplayClock {
  if (!clock.playing || elapsedMs <= 0) return clock;
  const time = clamp(clock, clock.time + (elapsedMs / 1000) * clock.speed);
  return time >= clock.end ? { ...clock, time: clock.end, playing: false } : { ...clock, time };
}

/** To a moment of the test (kept within its first and last frames); playing goes on from there. */
export function seek(clock: ReplayClock, time: number): ReplayClock {
  return Number.isFinite(time) ? { ...clock, time: clamp(clock, time) } : clock;
}

/** Plays from the current moment; from the start again when it is at the end. */
export function play(clock: ReplayClock): ReplayClock {
  if (clock.end <= clock.start) return clock;
  return { ...clock, playing: true, time: clock.time >= clock.end ? clock.start : clock.time };
}

export function pause(clock: ReplayClock): ReplayClock {
  return clock.playing ? { ...clock, playing: false } : clock;
}

export function setSpeed(clock: ReplayClock, speed: ReplaySpeed): ReplayClock {
  return { ...clock, speed };
}

/** A longer test or more frames: the end moves, the moment stays. */
export function setBounds(clock: ReplayClock, start: number, end: number): ReplayClock {
  const next = { ...clock, start, end: Math.max(start, end) };
  return { ...next, time: clamp(next, clock.time) };
}
