import { formatTestTime } from './test-time';

describe('formatTestTime (the simulator prints the test time it is at)', () => {
  it('counts from ignition, hours first', () => {
    expect(formatTestTime(0)).toBe('00:00:00');
    expect(formatTestTime(3725)).toBe('01:02:05');
  });
  it('before ignition, with a minus sign (it printed "-1:-1:00" for a minute before)', () => {
    expect(formatTestTime(-60)).toBe('-00:01:00');
    expect(formatTestTime(-0.2)).toBe('00:00:00');
  });
});
