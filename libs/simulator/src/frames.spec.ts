import { daqPayloadSchema, iso834 } from '@furnace/contracts';
import { createFrameGenerator } from './frames';

describe('createFrameGenerator', () => {
  it('makes frames that follow the DAQ contract, the same for the same seed', () => {
    const a = createFrameGenerator({ channels: 60, seed: 5, startedAt: new Date('2030-01-01T00:00:00Z') });
    const b = createFrameGenerator({ channels: 60, seed: 5, startedAt: new Date('2030-01-01T00:00:00Z') });
    for (let t = 0; t < 600; t += 30) {
      const frame = a(t);
      expect(daqPayloadSchema.parse(frame)).toEqual(frame);
      expect(frame.thermocouples_out).toHaveLength(60);
      expect(b(t)).toEqual(frame);
    }
    expect(a(90).ts).toBe('2030-01-01T00:01:30.000Z');
  });

  it('follows ISO 834 in the furnace, keeps +15..20 Pa, and lets some unexposed-face thermocouples cross 140/180 °C in a long test', () => {
    const generate = createFrameGenerator({ channels: 60, seed: 834 });
    let crossed180At: number | null = null;
    let meanCrossed140At: number | null = null;
    for (let t = 0; t <= 4 * 3600; t += 10) {
      const frame = generate(t);
      expect(Math.abs(frame.pk! - iso834(t))).toBeLessThan(40);
      expect(frame.pressure!).toBeGreaterThan(12);
      expect(frame.pressure!).toBeLessThan(23);
      const values = frame.thermocouples_out!.filter((v): v is number => v !== null);
      const mean = values.reduce((s, v) => s + v, 0) / values.length;
      if (crossed180At === null && Math.max(...values) > 180) crossed180At = t;
      if (meanCrossed140At === null && mean > 140) meanCrossed140At = t;
      if (t < 600) expect(Math.max(...values)).toBeLessThan(40); // the unexposed face has not warmed yet
    }
    // The hottest spot fails first, the mean later, both within a long test.
    expect(crossed180At).not.toBeNull();
    expect(meanCrossed140At).not.toBeNull();
    expect(crossed180At!).toBeGreaterThan(1800);
    expect(crossed180At!).toBeLessThan(meanCrossed140At!);
  });
});
