/** Messages between the benchmark (parent) and a viewer process (bench/fanout/viewer-worker.ts). */

export type ViewerKind = 'ws' | 'socketio';

export type WorkerCommand =
  | { type: 'connect'; kind: ViewerKind; urls: string[]; concurrency: number }
  /** Forgets what arrived so far. */
  | { type: 'reset' }
  /** DATA frames of times from..to (inclusive) received since the reset, over all viewers. */
  | { type: 'count'; from: number; to: number }
  /** What arrived of `sent` ([time, publish time in epoch ms]). */
  | { type: 'collect'; sent: [number, number][] }
  | { type: 'close' };

export type WorkerReply =
  | { type: 'connect'; connected: number; failed: number; error?: string }
  | { type: 'reset' }
  | { type: 'count'; deliveries: number }
  | { type: 'collect'; result: ViewerResult }
  | { type: 'close' };

export interface ViewerResult {
  viewers: number;
  /** Distinct frames of `sent` received, summed over viewers. */
  received: number;
  /** A frame received more than once by one viewer. */
  duplicates: number;
  /** A frame received after a later one. */
  outOfOrder: number;
  /** Publish → receive, ms, one per received frame and viewer. */
  latencies: Float64Array;
  /** When the last of them arrived (epoch ms; 0 when none did). */
  lastArrival: number;
}
