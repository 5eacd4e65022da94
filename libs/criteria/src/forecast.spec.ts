import { forecastEta, SlopeWindow } from './forecast';

describe('SlopeWindow', () => {
  it('a ramp of 3 K/min gives 0.05 K/s, using only the last 5 minutes', () => {
    const window = new SlopeWindow();
    // 20 min flat at 20 °C, then 3 K/min: the flat part must not bend the slope.
    for (let t = 0; t <= 1200; t += 1) window.push(t, 20);
    for (let t = 1201; t <= 1800; t += 1) window.push(t, 20 + 0.05 * (t - 1200));
    expect(window.slope()).toBeCloseTo(0.05, 10);
    expect(window.latest).toEqual({ time: 1800, value: 50 });
  });

  it('noise around a ramp averages out', () => {
    const window = new SlopeWindow();
    for (let t = 0; t <= 600; t += 1) window.push(t, 100 + t / 60 + (t % 2 === 0 ? 0.3 : -0.3));
    expect(window.slope()! * 60).toBeCloseTo(1, 2);
  });

  it('needs two samples', () => {
    const window = new SlopeWindow();
    window.push(0, 1);
    expect(window.slope()).toBeNull();
  });
});

describe('forecastEta', () => {
  it('time to the limit at the rate, only within 15 minutes', () => {
    expect(forecastEta(150, 200, 0.1)).toBeCloseTo(500, 10);
    expect(forecastEta(100, 200, 0.1)).toBeNull(); // 1000 s away
    expect(forecastEta(150, 200, 0)).toBeNull();
    expect(forecastEta(150, 200, -1)).toBeNull();
    expect(forecastEta(201, 200, 0.1)).toBe(0);
  });
});
