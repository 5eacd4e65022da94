import { formatElapsed, formatTestTime, formatValue, formatWarsawDateTime } from './format';

describe('formatElapsed', () => {
  it.each([
    [0, '00:00:00'],
    [59.9, '00:00:59'],
    [754, '00:12:34'],
    [3600, '01:00:00'],
    [86399, '23:59:59'],
    [100 * 3600 + 61, '100:01:01'],
  ])('%f s → %s', (seconds, text) => {
    expect(formatElapsed(seconds)).toBe(text);
  });

  it.each([null, undefined, -1, Number.NaN, Number.POSITIVE_INFINITY])('%p → 00:00:00', (seconds) => {
    expect(formatElapsed(seconds)).toBe('00:00:00');
  });
});

describe('formatTestTime', () => {
  it('signs a time before ignition and says when it is unknown', () => {
    expect(formatTestTime(3000)).toBe('00:50:00');
    expect(formatTestTime(3725.4)).toBe('01:02:05');
    expect(formatTestTime(-30)).toBe('−00:00:30');
    expect(formatTestTime(-30, '-')).toBe('-00:00:30');
    expect(formatTestTime(null)).toBe('---');
  });
});

describe('formatValue', () => {
  it.each([
    [812.44, '812.4'],
    [812.46, '812.5'],
    [14, '14.0'],
    [-3.25, '-3.3'],
    [-0.04, '0.0'],
    [0, '0.0'],
  ])('%f → %s', (value, text) => {
    expect(formatValue(value)).toBe(text);
  });

  it.each([null, undefined, Number.NaN, Number.POSITIVE_INFINITY])('%p → ---', (value) => {
    expect(formatValue(value)).toBe('---');
  });
});

describe('formatWarsawDateTime', () => {
  it('writes a moment in Warsaw time, summer and winter alike, whatever the zone it runs in', () => {
    expect(formatWarsawDateTime(new Date('2026-03-01T08:07:00Z'))).toBe('01.03.2026, 09:07:00');
    expect(formatWarsawDateTime(new Date('2026-07-01T08:07:00Z'))).toBe('01.07.2026, 10:07:00');
  });
});
