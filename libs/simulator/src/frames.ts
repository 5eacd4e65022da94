import { type DaqPayload, iso834, ISO834_AMBIENT_C, MAX_CHANNELS } from '@furnace/contracts';

/*
 * Realistic DAQ frames for a fire-resistance test, used by the simulator CLI and the demo of
 * `npm start`. Deterministic for a seed, so tests can rely on what it produces.
 */

export interface FrameGeneratorOptions {
  /** Thermocouple channels (thermocouples_out.length). */
  channels?: number;
  seed?: number;
  /** The DAQ's clock at time 0 (the payload's `ts`); omitted from frames when unset. */
  startedAt?: Date;
  /** Probability that a channel has no reading in a frame (null), as a loose connector gives. */
  dropoutRate?: number;
}

interface Channel {
  /** Rise above ambient after one hour past the delay, °C. */
  risePerHour: number;
  /** Minutes before the unexposed face starts to warm up. */
  delayMinutes: number;
  /** Calibration offset of the thermocouple, °C. */
  offset: number;
}

/** Stefan–Boltzmann constant, W/(m²·K⁴). */
const SIGMA = 5.670374419e-8;
const KELVIN = 273.15;

/**
 * Returns a function giving the frame at `time` seconds since the start (call it with increasing
 * times). Furnace mean (pk) follows ISO 834 with noise; the unexposed face's thermocouples rise
 * slowly after a delay, each at its own rate (the hottest cross the 140/180 °C criteria after
 * roughly 45-90 minutes, most stay below for hours); radiation follows the unexposed face's mean
 * temperature as a grey body seen at a view factor; furnace pressure holds about +15..20 Pa with
 * the slow swing of the draught control.
 */
export function createFrameGenerator(options: FrameGeneratorOptions = {}): (time: number) => DaqPayload {
  const channelCount = Math.max(0, Math.min(MAX_CHANNELS, Math.floor(options.channels ?? 60)));
  const random = mulberry32(options.seed ?? 834);
  const gauss = () => {
    // Box–Muller; 1 - random() is in (0, 1], so the log is finite.
    const u = 1 - random();
    const v = random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
  const channels: Channel[] = Array.from({ length: channelCount }, () => {
    // Log-normal rates: most of the face warms moderately, a few hot spots (joints, fixings) much faster.
    const risePerHour = 55 * Math.exp(0.55 * gauss());
    return { risePerHour, delayMinutes: 4 + 6 * random(), offset: 1.5 * gauss() };
  });
  const dropoutRate = options.dropoutRate ?? 0.001;
  let furnaceNoise = 0;

  return (time: number): DaqPayload => {
    const t = Math.max(0, time);
    const minutes = t / 60;
    // Slowly wandering noise (a furnace does not jump by degrees between samples) plus sensor scatter.
    furnaceNoise = 0.98 * furnaceNoise + 0.6 * gauss();
    const pk = iso834(t) + furnaceNoise + 0.8 * gauss();

    const thermocouples: (number | null)[] = [];
    let sum = 0;
    let count = 0;
    for (const channel of channels) {
      const hours = Math.max(0, minutes - channel.delayMinutes) / 60;
      const value = ISO834_AMBIENT_C + channel.offset + channel.risePerHour * Math.pow(hours, 1.4) + 0.25 * gauss();
      sum += value;
      count++;
      thermocouples.push(random() < dropoutRate ? null : round(value, 1));
    }
    const faceMean = count > 0 ? sum / count : ISO834_AMBIENT_C;
    // Grey body (emissivity 0.9) seen at a view factor of 0.35 by a radiometer, kW/m².
    const radiance = (0.9 * 0.35 * SIGMA * ((faceMean + KELVIN) ** 4 - (ISO834_AMBIENT_C + KELVIN) ** 4)) / 1000 + 0.02 * gauss();
    const pressure = 17.5 + 1.6 * Math.sin((2 * Math.PI * t) / 97) + 0.5 * gauss();

    const frame: DaqPayload = {
      time: round(t, 3),
      radiance: round(radiance, 2),
      pressure: round(pressure, 1),
      pk: round(pk, 1),
      thermocouples_out: thermocouples,
    };
    if (options.startedAt) frame.ts = new Date(options.startedAt.getTime() + t * 1000).toISOString();
    return frame;
  };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** A small, fast seeded PRNG (mulberry32): same seed, same frames. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
