import { daqPayloadSchema, iso834 } from '@furnace/contracts';
import { createFrameGenerator, furnaceMean, OVER_RANGE } from './frames';
import { SPECIMEN_PROFILES, specimenProfile } from './specimens';

/** A frame as the ingest keeps it: an over-range channel nulled and flagged. */
const ingested = (generate: (t: number) => unknown, t: number) => daqPayloadSchema.parse(generate(t));

describe('createFrameGenerator', () => {
  it('makes frames that follow the DAQ contract, the same for the same seed', () => {
    const a = createFrameGenerator({ channels: 60, seed: 5, startedAt: new Date('2030-01-01T00:00:00Z') });
    const b = createFrameGenerator({ channels: 60, seed: 5, startedAt: new Date('2030-01-01T00:00:00Z') });
    for (let t = -60; t < 600; t += 30) {
      const frame = a(t);
      expect(daqPayloadSchema.parse(frame)).toEqual(frame);
      expect(frame.thermocouples_out).toHaveLength(60);
      expect(b(t)).toEqual(frame);
    }
    expect(a(90).ts).toBe('2030-01-01T00:01:30.000Z');
    expect(a(-30).ts).toBe('2029-12-31T23:59:30.000Z');
  });

  it('is cold before ignition: furnace and face at ambient, no furnace pressure', () => {
    const generate = createFrameGenerator({ seed: 834 });
    for (let t = -60; t < 0; t += 1) {
      const frame = generate(t);
      expect(frame.time).toBe(t);
      expect(Math.abs(frame.pk! - 20)).toBeLessThan(2);
      expect(Math.abs(frame.pressure!)).toBeLessThan(2);
      for (const v of frame.thermocouples_out!) if (v !== null) expect(Math.abs(v - 20)).toBeLessThan(3);
    }
  });

  it('lags the ISO 834 curve in the first minute, overshoots it around 10 minutes, then follows it', () => {
    expect(furnaceMean(30)).toBeLessThan(iso834(30) - 100); // burners still lighting
    expect(furnaceMean(540) - iso834(540)).toBeGreaterThan(25); // the control overshooting
    expect(Math.abs(furnaceMean(3600) - iso834(3600))).toBeLessThan(2);
    const generate = createFrameGenerator({ seed: 834 });
    for (let t = 0; t <= 4 * 3600; t += 10) {
      const frame = generate(t);
      expect(Math.abs(frame.pk! - furnaceMean(t))).toBeLessThan(15);
      if (t > 0) expect(frame.pressure!).toBeGreaterThan(12);
      expect(frame.pressure!).toBeLessThan(23);
    }
  });

  it('shows the moisture plateau: face thermocouples hold near 100 °C for minutes before rising on', () => {
    const generate = createFrameGenerator({ seed: 834, dropoutRate: 0 });
    const face = specimenProfile('door-ei2-60')!.channels.flatMap((c, i) => (c.kind === 'face' ? [i] : []));
    const minutesBetween95And105 = new Array<number>(face.length).fill(0);
    let after = 0;
    for (let t = 0; t <= 150 * 60; t += 60) {
      const values = ingested(generate, t).thermocouples_out!;
      face.forEach((channel, k) => {
        const v = values[channel];
        if (typeof v === 'number' && v >= 95 && v <= 105) minutesBetween95And105[k]!++;
        if (t === 150 * 60 && typeof v === 'number' && v > 150) after++;
      });
    }
    // At the dry curve's pace a channel passes 95..105 °C in a minute or two; the plateau holds it 6-14.
    expect(Math.min(...minutesBetween95And105.filter((_, k) => face[k] !== 5))).toBeGreaterThanOrEqual(5);
    expect(after).toBeGreaterThan(5); // and they dry out and rise on
  });

  it('breaks one thermocouple part-way: it reads over-range, which the ingest nulls and flags', () => {
    const profile = specimenProfile('door-ei2-60')!;
    const generate = createFrameGenerator({ profile, seed: 834 });
    const breaks = profile.failing.at_min * 60;
    expect(generate(breaks - 1).thermocouples_out![profile.failing.thermo_id - 1]).not.toBe(OVER_RANGE);
    expect(generate(breaks).thermocouples_out![profile.failing.thermo_id - 1]).toBe(OVER_RANGE);
    const frame = ingested(generate, breaks + 1);
    expect(frame.faults).toEqual([profile.failing.thermo_id]);
    expect(frame.thermocouples_out![profile.failing.thermo_id - 1]).toBeNull();
    expect(frame.pk).not.toBeNull();
  });

  it('--fault-at: a chosen thermocouple reads over-range (its fault flag) from the time given', () => {
    const generate = createFrameGenerator({ seed: 834, channels: 3, faultAt: { time: 30, thermoId: 3 } });
    expect(generate(29).thermocouples_out![2]).not.toBe(OVER_RANGE);
    expect(generate(30).thermocouples_out![2]).toBe(OVER_RANGE);
    expect(generate(31).thermocouples_out![2]).toBe(OVER_RANGE);
    expect(generate(32).thermocouples_out![1]).not.toBe(OVER_RANGE);
  });

  it.each(SPECIMEN_PROFILES.map((p) => [p.id, p] as const))(
    '%s: the unexposed face stays cool for 10 minutes and then warms',
    (_id, profile) => {
      const generate = createFrameGenerator({ profile, seed: 834 });
      expect(generate(0).thermocouples_out).toHaveLength(profile.channels.length);
      let hottest = 0;
      for (let t = 0; t <= profile.planned_duration_min * 2 * 60; t += 30) {
        const values = ingested(generate, t).thermocouples_out!.filter((v): v is number => v !== null);
        if (t < 600) expect(Math.max(...values)).toBeLessThan(40);
        hottest = Math.max(hottest, ...values);
      }
      expect(hottest).toBeGreaterThan(200);
    },
  );
});
