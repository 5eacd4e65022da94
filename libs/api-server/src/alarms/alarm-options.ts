import { SILENCE_RULE } from '@furnace/contracts';

/** Timings of the alarms (docs/behaviour.md, "Alarms"); tests shorten them. */
export interface AlarmOptions {
  /** An unacknowledged open alarm's message repeats this often, and no alarm gets two messages within it (ms). */
  repeatMs: number;
  /** How often each instance looks for messages due (ms). */
  sweepMs: number;
  /** How often each instance looks for running tests nobody watches (ms). */
  watchMs: number;
  /** Silence: this many scan periods without a frame… */
  missedScans: number;
  /**
   * …and never less than this (s): a fast DAQ's frames reach the API in bursts when the pipeline is busy, and
   * 3 scans of a 10 Hz DAQ (0.3 s) raised 56 false alarms in 80 s of a busy lab (docs/behaviour.md §17).
   */
  minSilenceS: number;
  /** The scan period of a test on no furnace (s). */
  defaultScanPeriodS: number;
  /** A failure forecast within this long raises an alarm (s). */
  forecastWithinS: number;
  /** Webhook attempts per message, and the wait before the second (doubled each time after, ms). */
  webhookAttempts: number;
  webhookBackoffMs: number;
  /** A webhook call that takes longer fails (ms). */
  webhookTimeoutMs: number;
}

export const ALARM_OPTIONS = Symbol('ALARM_OPTIONS');

export const DEFAULT_ALARM_OPTIONS: AlarmOptions = {
  repeatMs: 5 * 60_000,
  sweepMs: 1_000,
  watchMs: 5_000,
  missedScans: SILENCE_RULE.missedScans,
  minSilenceS: SILENCE_RULE.minSeconds,
  defaultScanPeriodS: 1,
  forecastWithinS: 5 * 60,
  webhookAttempts: 5,
  webhookBackoffMs: 2_000,
  webhookTimeoutMs: 10_000,
};
