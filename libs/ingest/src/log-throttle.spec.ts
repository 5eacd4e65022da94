import { LogThrottle } from './log-throttle';

describe('LogThrottle', () => {
  it('reports the first event of a key, holds back the rest of the interval, then reports how many there were', () => {
    let now = 1_000;
    const throttle = new LogThrottle(60_000, () => now);
    expect(throttle.event('bad_json')).toEqual({ events: 1, first: true });
    now += 10;
    expect(throttle.event('bad_json')).toBeNull();
    now += 10;
    expect(throttle.event('bad_json')).toBeNull();
    now += 60_000;
    expect(throttle.event('bad_json')).toEqual({ events: 3, first: false });
  });

  it('throttles each key on its own', () => {
    const throttle = new LogThrottle(60_000, () => 5_000);
    expect(throttle.event('a')).toEqual({ events: 1, first: true });
    expect(throttle.event('b')).toEqual({ events: 1, first: true });
    expect(throttle.event('a')).toBeNull();
  });
});
