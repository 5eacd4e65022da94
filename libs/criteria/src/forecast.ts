/*
 * Forecast of an insulation criterion not yet failed: if the rate of rise of the last 5 minutes continues,
 * when is the limit reached? The rate is the least-squares slope of the criterion's value (the hottest
 * counted thermocouple, or the category mean) over the frames of the last 5 minutes; it is given once the
 * test has run 5 minutes, and shown only when the limit is less than 15 minutes away.
 */
import { packFloats, unpackFloats } from './state-codec';

export const FORECAST_WINDOW_S = 5 * 60;

/** The samples still in the window, packed. */
export interface SlopeState {
  times: string;
  values: string;
}
const FORECAST_HORIZON_S = 15 * 60;

/** The (time, value) samples of the last `window` seconds, with their least-squares slope. */
export class SlopeWindow {
  private times: number[] = [];
  private values: number[] = [];
  private head = 0;

  constructor(private readonly window: number = FORECAST_WINDOW_S) {}

  push(time: number, value: number): void {
    this.times.push(time);
    this.values.push(value);
    while (this.head < this.times.length && (this.times[this.head] as number) < time - this.window) this.head += 1;
    // Drop the consumed prefix now and then, so the arrays stay about one window long.
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.values = this.values.slice(this.head);
      this.head = 0;
    }
  }

  save(): SlopeState {
    return { times: packFloats(this.times.slice(this.head)), values: packFloats(this.values.slice(this.head)) };
  }

  restore(state: SlopeState): void {
    this.times = Array.from(unpackFloats(state.times));
    this.values = Array.from(unpackFloats(state.values));
    if (this.times.length !== this.values.length)
      throw new Error('criteria state: a slope window with unequal times and values');
    this.head = 0;
  }

  get latest(): { time: number; value: number } | null {
    const n = this.times.length;
    if (n === this.head) return null;
    return { time: this.times[n - 1] as number, value: this.values[n - 1] as number };
  }

  /** Slope per second over the window; null with fewer than two samples. */
  slope(): number | null {
    const n = this.times.length - this.head;
    if (n < 2) return null;
    const base = this.times[this.head] as number;
    let st = 0;
    let sv = 0;
    for (let i = this.head; i < this.times.length; i += 1) {
      st += (this.times[i] as number) - base;
      sv += this.values[i] as number;
    }
    const mt = st / n;
    const mv = sv / n;
    let stt = 0;
    let stv = 0;
    for (let i = this.head; i < this.times.length; i += 1) {
      const dt = (this.times[i] as number) - base - mt;
      stt += dt * dt;
      stv += dt * ((this.values[i] as number) - mv);
    }
    return stt > 0 ? stv / stt : null;
  }
}

/**
 * Seconds from now until `value` reaches `limit` at `ratePerS`; null when it is not rising, or the limit is
 * not within the horizon.
 */
export function forecastEta(
  value: number,
  limit: number,
  ratePerS: number,
  horizon = FORECAST_HORIZON_S,
): number | null {
  if (!(ratePerS > 0)) return null;
  const eta = Math.max(0, (limit - value) / ratePerS);
  return eta < horizon ? eta : null;
}
