import { connectViewer, streamUrl, type TestViewer } from '@furnace/testing';
import { percentile, sortedCopy } from './stats';

/*
 * A member of staff watching a live test while the benchmark works on something else (the watcher): each
 * frame's latency from its publish to its DATA on the watcher's socket, grouped by the phase it was published
 * in, and how long each phase held the frames beyond the quiet latency (goal: no more than 100 ms).
 */

/** The watcher's frames published during one phase. */
export interface Hold {
  label: string;
  frames: number;
  p50: number;
  max: number;
  /** max − the quiet p50, ms. */
  beyondQuiet: number;
  /** Frames published during the phase that never reached the watcher. */
  missed: number;
}

export interface Watcher {
  /** Runs `work` as a phase named `label`: the frames published meanwhile are its frames. */
  phase<T>(label: string, work: () => Promise<T>): Promise<T>;
  /** Each phase's frames (those published until 5 s ago), measured against the p50 of the phase `quietLabel`. */
  holds(quietLabel?: string): { quiet: { p50: number; p99: number; max: number }; holds: Hold[] };
  close(): Promise<void>;
}

interface Window {
  label: string;
  from: number;
  to: number;
}

/**
 * Connects a staff viewer (`token`) to the live stream of `researchId` on `api`; `published` is when each frame
 * was published, by its time (a LiveDaq's).
 */
export async function watchLive(
  api: { url: string },
  researchId: string,
  token: string,
  published: ReadonlyMap<number, number>,
): Promise<Watcher> {
  const viewer: TestViewer = await connectViewer(streamUrl(api, researchId, { token }), { timesOnly: true });
  const windows: Window[] = [];
  const framesOf = (w: Window) => [...published].filter(([, at]) => at >= w.from && at <= w.to);
  const latencies = (w: Window) =>
    sortedCopy(
      framesOf(w).flatMap(([time, at]) => (viewer.arrivals.has(time) ? [viewer.arrivals.get(time)! - at] : [])),
    );
  return {
    async phase(label, work) {
      const w: Window = { label, from: performance.now(), to: Number.NaN };
      windows.push(w);
      try {
        return await work();
      } finally {
        w.to = performance.now();
      }
    },
    holds(quietLabel = 'quiet') {
      const quietWindow = windows.find((w) => w.label === quietLabel);
      if (!quietWindow) throw new Error(`no phase "${quietLabel}"`);
      const quiet = latencies(quietWindow);
      const quietP50 = percentile(quiet, 50);
      const settled = performance.now() - 5_000;
      const holds = windows.map((w): Hold => {
        const l = latencies(w);
        const missed = framesOf(w).filter(([time, at]) => at < settled && !viewer.arrivals.has(time)).length;
        return {
          label: w.label,
          frames: l.length,
          p50: percentile(l, 50),
          max: percentile(l, 100),
          beyondQuiet: percentile(l, 100) - quietP50,
          missed,
        };
      });
      return { quiet: { p50: quietP50, p99: percentile(quiet, 99), max: percentile(quiet, 100) }, holds };
    },
    close: () => viewer.close(),
  };
}
