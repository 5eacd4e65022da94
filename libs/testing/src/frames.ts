import type { DaqPayload } from '@furnace/contracts';

/** A plain DAQ frame at `time`, with a few thermocouples (one of them without a reading). */
export function frame(time: number, overrides: Partial<DaqPayload> = {}): DaqPayload {
  return {
    time,
    radiance: 1.5,
    pressure: 16.2,
    pk: 500 + time,
    thermocouples_out: [20 + time / 100, 21, null],
    ...overrides,
  };
}
