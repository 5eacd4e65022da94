import { formatDeviation, formatTestTime } from '@furnace/contracts';
import { deviationColor, failureTime, formatEta, formatRise, overLimit } from './criteria-format';

describe('criteria formatting', () => {
  it('signs rises in kelvin', () => {
    expect(formatRise(34.24)).toBe('+34.2 K');
    expect(formatRise(-1.04)).toBe('−1.0 K');
    expect(formatRise(-0.04)).toBe('+0.0 K');
    expect(formatRise(null)).toBe('---');
  });

  it('writes d_e with two decimals and a proper minus', () => {
    expect(formatDeviation(-5)).toBe('−5.00 %');
    expect(formatDeviation(12.123)).toBe('12.12 %');
    expect(formatDeviation(-0.001)).toBe('0.00 %');
    expect(formatDeviation(null)).toBe('---');
  });

  it('colours d_e against its tolerance, neutral before 5 min', () => {
    expect(deviationColor({ d_e: -5, tolerance: 15, ok: true })).toBe('green');
    expect(deviationColor({ d_e: -5, tolerance: 2.5, ok: false })).toBe('red');
    expect(deviationColor({ d_e: -20, tolerance: null, ok: null })).toBe('gray');
  });

  it('compares a value with a limit in °C', () => {
    expect(overLimit(200.4, { c: 200.3 })).toBe(true);
    expect(overLimit(200.3, { c: 200.3 })).toBe(false);
    expect(overLimit(null, { c: 200.3 })).toBe(false);
    expect(overLimit(250, null)).toBe(false);
  });

  it('shows a failure after a gap as an interval', () => {
    expect(failureTime({ time: 4830, interval_from: null })).toEqual({ text: '01:20:30', interval: false });
    expect(failureTime({ time: 4830, interval_from: 4700 })).toEqual({ text: '(01:18:20, 01:20:30]', interval: true });
  });

  it('writes times and forecasts', () => {
    expect(formatTestTime(-30)).toBe('−00:00:30');
    expect(formatTestTime(3820)).toBe('01:03:40');
    expect(formatEta(245.4)).toBe('4:05');
    expect(formatEta(-3)).toBe('0:00');
  });
});
