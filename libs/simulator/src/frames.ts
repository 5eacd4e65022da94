import { type DaqPayload, iso834, ISO834_AMBIENT_C, MAX_CHANNELS } from '@furnace/contracts';
import { type ChannelKind, DEFAULT_SPECIMEN, type SpecimenProfile, specimenProfile } from './specimens';

/*
 * Realistic DAQ frames for a fire-resistance test, used by the simulator CLI and the demo of
 * `npm start`. Deterministic for a seed, so tests can rely on what it produces.
 */

export interface FrameGeneratorOptions {
  /** The specimen (its thermocouples, how fast it warms, which thermocouple breaks); default the EI2 60 door. */
  profile?: SpecimenProfile;
  /** Thermocouple channels (thermocouples_out.length); default the specimen's; channels beyond its layout are on the face. */
  channels?: number;
  seed?: number;
  /** The DAQ's clock at time 0 (the payload's `ts`); omitted from frames when unset. */
  startedAt?: Date;
  /** Probability that a channel has no reading in a frame (null), as a loose connector gives. */
  dropoutRate?: number;
  /** From `time` (s) on, thermocouple `thermoId` reads over-range, the DAQ's fault flag (docs/behaviour.md, "Alarms"). */
  faultAt?: { time: number; thermoId: number };
}

interface Channel {
  /** Rise above ambient after one hour past the delay, °C. */
  risePerHour: number;
  /** Minutes before the unexposed face starts to warm up. */
  delayMinutes: number;
  /** Calibration offset of the thermocouple, °C. */
  offset: number;
  /** Minutes the channel holds near 100 °C while the specimen's moisture evaporates (0 on steel). */
  plateauMinutes: number;
  /** Hours past the delay at which the dry curve reaches the plateau (Infinity without one). */
  plateauAtHours: number;
}

/** What an open thermocouple circuit reads: the DAQ's over-range value. */
export const OVER_RANGE = 3276.7;
/** Rise above ambient at which the moisture plateau holds, K (the unexposed face at ~100 °C). */
const PLATEAU_RISE = 80;
const CURVE_EXPONENT = 1.4;
/** How each place warms relative to the leaf's face: edges faster (thermal bridges), the steel frame much faster. */
const KIND_RATE: Record<ChannelKind, number> = { face: 1, edge: 1.15, frame: 2 };

/** Stefan–Boltzmann constant, W/(m²·K⁴). */
const SIGMA = 5.670374419e-8;
const KELVIN = 273.15;

/**
 * Returns a function giving the frame at `time` seconds since ignition (call it with increasing
 * times; negative times are the minutes before ignition, everything at ambient). Like a furnace:
 * - the mean furnace temperature (pk) lags the ISO 834 curve in the first minute (burners lighting),
 *   overshoots it by up to ~30 °C around 8-10 minutes (the control catching up), then follows it with noise;
 * - the unexposed face's thermocouples rise after a delay, each at its own rate, and where the
 *   specimen holds moisture they stop near 100 °C for several minutes while it evaporates; edge
 *   thermocouples warm faster, the steel frame's much faster and without the plateau;
 * - one thermocouple's wire breaks part-way: from then on it reads over-range (3276.7), as a DAQ reports an open circuit;
 * - radiation follows the unexposed face's mean temperature as a grey body seen at a view factor;
 *   furnace pressure holds about +15..20 Pa with the slow swing of the draught control (0 before ignition).
 */
export function createFrameGenerator(options: FrameGeneratorOptions = {}): (time: number) => DaqPayload {
  const profile = options.profile ?? specimenProfile(DEFAULT_SPECIMEN)!;
  const channelCount = Math.max(0, Math.min(MAX_CHANNELS, Math.floor(options.channels ?? profile.channels.length)));
  const random = mulberry32(options.seed ?? 834);
  const gauss = () => {
    // Box–Muller; 1 - random() is in (0, 1], so the log is finite.
    const u = 1 - random();
    const v = random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
  const channels: Channel[] = Array.from({ length: channelCount }, (_, i) => {
    const kind = profile.channels[i]?.kind ?? 'face';
    // Log-normal rates: most of the face warms moderately, a few hot spots (joints, fixings) much faster.
    const risePerHour = 110 * profile.rateScale * KIND_RATE[kind] * Math.exp(0.2 * gauss());
    const plateauMinutes = kind === 'frame' ? 0 : 6 + 8 * random();
    const plateauAtHours =
      plateauMinutes > 0 ? (PLATEAU_RISE / risePerHour) ** (1 / CURVE_EXPONENT) : Number.POSITIVE_INFINITY;
    return { risePerHour, delayMinutes: 4 + 6 * random(), offset: 0.6 * gauss(), plateauMinutes, plateauAtHours };
  });
  const failing = profile.failing.thermo_id - 1;
  const failsAt = profile.failing.at_min * 60;
  const dropoutRate = options.dropoutRate ?? 0.001;
  const faultAt = options.faultAt;
  let furnaceNoise = 0;

  return (time: number): DaqPayload => {
    const t = Math.max(0, time);
    const minutes = t / 60;
    // Slowly wandering noise (a furnace does not jump by degrees between samples) plus sensor scatter.
    furnaceNoise = 0.98 * furnaceNoise + 0.6 * gauss();
    const pk = time < 0 ? ISO834_AMBIENT_C + 0.3 * gauss() : furnaceMean(t) + furnaceNoise + 0.8 * gauss();

    const thermocouples: (number | null)[] = [];
    let sum = 0;
    let count = 0;
    // The unexposed face never gets hotter than the furnace behind it: over a long test (a day) the
    // rise stops some 50 K under the furnace's mean.
    const maxRise = Math.max(0, furnaceMean(t) - ISO834_AMBIENT_C - 50);
    for (let i = 0; i < channels.length; i++) {
      const channel = channels[i]!;
      const value =
        ISO834_AMBIENT_C +
        channel.offset +
        Math.min(maxRise, rise(channel, Math.max(0, minutes - channel.delayMinutes) / 60)) +
        0.25 * gauss();
      sum += value;
      count++;
      if (i === failing && time >= failsAt) thermocouples.push(OVER_RANGE);
      else if (faultAt && i === faultAt.thermoId - 1 && time >= faultAt.time) thermocouples.push(OVER_RANGE);
      else thermocouples.push(random() < dropoutRate ? null : round(value, 1));
    }
    const faceMean = count > 0 ? sum / count : ISO834_AMBIENT_C;
    // Grey body (emissivity 0.9) seen at a view factor of 0.35 by a radiometer, kW/m².
    const radiance =
      (0.9 * 0.35 * SIGMA * ((faceMean + KELVIN) ** 4 - (ISO834_AMBIENT_C + KELVIN) ** 4)) / 1000 + 0.02 * gauss();
    const pressure = time < 0 ? 0.3 * gauss() : 17.5 + 1.6 * Math.sin((2 * Math.PI * t) / 97) + 0.5 * gauss();

    const frame: DaqPayload = {
      time: round(time, 3),
      radiance: round(radiance, 2),
      pressure: round(pressure, 1),
      pk: round(pk, 1),
      thermocouples_out: thermocouples,
    };
    if (options.startedAt) frame.ts = new Date(options.startedAt.getTime() + time * 1000).toISOString();
    return frame;
  };
}

/**
 * The furnace's mean temperature without noise, °C: ISO 834 reached through a first-order lag of
 * 75 s (the burners lighting), plus an overshoot of up to ~30 °C peaking at 9 minutes and fading.
 */
export function furnaceMean(tSeconds: number): number {
  const t = Math.max(0, tSeconds);
  const target = iso834(t);
  const lagged = target - (target - ISO834_AMBIENT_C) * Math.exp(-t / 75);
  const peak = 540;
  return lagged + 30 * (t / peak) * Math.exp(1 - t / peak);
}

/** A channel's rise above ambient `hours` after its delay, K: the dry curve with the moisture plateau cut in. */
function rise(channel: Channel, hours: number): number {
  const dry = (h: number) => channel.risePerHour * h ** CURVE_EXPONENT;
  if (hours <= channel.plateauAtHours) return dry(hours);
  const plateauHours = channel.plateauMinutes / 60;
  // Near 100 °C the evaporating water holds the face; it creeps up a few kelvin before drying out.
  if (hours <= channel.plateauAtHours + plateauHours)
    return PLATEAU_RISE + 4 * ((hours - channel.plateauAtHours) / plateauHours);
  return dry(hours - plateauHours) + 4;
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
