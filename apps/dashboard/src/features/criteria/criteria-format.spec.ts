import { formatDeviation, formatTestTime, type TolerancePeriod } from '@furnace/contracts';
import { i18n } from '../../i18n';
import {
  conformityColor,
  criterionState,
  failureTime,
  formatEta,
  formatPeriod,
  formatRise,
  overLimit,
  pressureTargetText,
} from './criteria-format';

const period = (over: Partial<TolerancePeriod>): TolerancePeriod => ({
  from: 750,
  to: 850,
  open: false,
  worst: 20,
  worst_tolerance: 15,
  worst_time: 800,
  ...over,
});

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

  it('colours d_e and the pressure by their conformity over the test, not by the newest frame alone', () => {
    expect(conformityColor({ periods: [], conforming: true })).toBe('green');
    expect(conformityColor({ periods: [period({ open: true })], conforming: false })).toBe('red');
    // Back within tolerance at the newest frame (ok), but it was outside: still red.
    expect(conformityColor({ periods: [period({})], conforming: false })).toBe('red');
    expect(conformityColor({ periods: [], conforming: false })).toBe('red');
    // Nothing judged yet (t ≤ 5 min).
    expect(conformityColor({ periods: [], conforming: null })).toBe('gray');
  });

  it('writes a period outside a tolerance: its times, the worst value signed, the tolerance then', () => {
    const pl = i18n.getFixedT('pl', 'criteria');
    const en = i18n.getFixedT('en', 'criteria');
    expect(formatPeriod(period({}), 'deviation', pl)).toBe('00:12:30–00:14:10, najgorsze +20.00 % przy ±15.00 %');
    expect(formatPeriod(period({}), 'deviation', en)).toBe('00:12:30–00:14:10, worst +20.00 % against ±15.00 %');
    expect(
      formatPeriod(period({ from: 3700, to: 3725, open: true, worst: -3.456, worst_tolerance: 2.5 }), 'deviation', pl),
    ).toBe('01:01:40–trwa, najgorsze −3.46 % przy ±2.50 %');
    expect(
      formatPeriod(period({ from: 3700, to: 3725, open: true, worst: -3.456, worst_tolerance: 2.5 }), 'deviation', en),
    ).toBe('01:01:40–ongoing, worst −3.46 % against ±2.50 %');
    expect(formatPeriod(period({ from: 330, to: 420, worst: -6.44, worst_tolerance: 5 }), 'pressure', pl)).toBe(
      '00:05:30–00:07:00, najgorsze −6.4 Pa przy ±5.0 Pa',
    );
    expect(formatPeriod(period({ from: 660, to: 661, open: true, worst: 4, worst_tolerance: 3 }), 'pressure', en)).toBe(
      '00:11:00–ongoing, worst +4.0 Pa against ±3.0 Pa',
    );
  });

  it("writes the pressure's target with its tolerance, the target alone before 5 min", () => {
    const pl = i18n.getFixedT('pl', 'criteria');
    expect(pressureTargetText({ target: 20, tolerance: 3 }, pl)).toBe('cel 20.0 ± 3.0 Pa');
    expect(pressureTargetText({ target: 20, tolerance: null }, pl)).toBe('cel 20.0 Pa, tolerancja od 5 min');
    expect(pressureTargetText({ target: 20, tolerance: 5 }, i18n.getFixedT('en', 'criteria'))).toBe(
      'target 20.0 ± 5.0 Pa',
    );
  });

  it('tells a criterion not measured, or W deemed met by I, from one held', () => {
    const result = { time: null, minutes: null, reached: false, held_minutes: 50, measured: true, deemed: false };
    expect(criterionState(result)).toBe('held');
    expect(criterionState({ ...result, time: 3000, reached: true })).toBe('failed');
    expect(criterionState({ ...result, held_minutes: null, measured: false })).toBe('notMeasured');
    expect(criterionState({ ...result, measured: false, deemed: true })).toBe('deemed');
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
