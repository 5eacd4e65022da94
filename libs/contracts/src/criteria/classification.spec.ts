import { classify, classPeriod, completedMinutes, criterionMinutes } from './classification';

const at = (minutes: number, seconds = 0) => minutes * 60 + seconds;

describe('classify', () => {
  it('E at 63:40, I at 47:10, W never: "E 60, EI 45, EW 60"', () => {
    const times = { E: at(63, 40), I: at(47, 10), W: null, end: at(70) };
    expect(criterionMinutes(times)).toEqual({ E: 63, I: 47, W: 63 });
    expect(classify(times, { door: true })).toBe('E 60, EI 45, EW 60');
    expect(classify(times, { door: false })).toBe('E 60, EI 45, EW 60');
  });

  it('EW for doors is only 20, 30 or 60', () => {
    const times = { E: null, I: at(50), W: at(50, 59), end: at(95) };
    expect(classify(times, { door: true })).toBe('E 90, EI 45, EW 30');
    expect(classify(times, { door: false })).toBe('E 90, EI 45, EW 45');
  });

  it('caps I and W at E', () => {
    expect(classify({ E: at(31), I: at(70), W: at(40), end: at(90) }, { door: false })).toBe('E 30, EI 30, EW 30');
  });

  it('uses the end for criteria not reached', () => {
    expect(classify({ E: null, I: null, W: null, end: at(121, 30) }, { door: false })).toBe('E 120, EI 120, EW 120');
  });

  it('writes EI1 / EI2 for a door given its insulation class', () => {
    const times = { E: at(63, 40), I: at(47, 10), W: null, end: at(70) };
    expect(classify(times, { door: true, insulation: 'I2' })).toBe('E 60, EI2 45, EW 60');
    expect(classify(times, { door: true, insulation: 'I1' })).toBe('E 60, EI1 45, EW 60');
  });

  it('leaves out a criterion that was not measured', () => {
    const times = { E: at(63, 40), I: null, W: null, end: at(70) };
    expect(classify({ ...times, measured: { W: false } }, { door: false })).toBe('E 60, EI 60');
    expect(classify({ ...times, measured: { I: false, W: true } }, { door: false })).toBe('E 60, EW 60');
  });

  it('leaves out parts below their smallest period', () => {
    expect(classify({ E: at(40), I: at(14, 59), W: at(19), end: at(40) }, { door: true })).toBe('E 30');
    expect(classify({ E: at(14), I: null, W: null, end: at(20) }, { door: false })).toBe('');
  });
});

describe('helpers', () => {
  it('completed minutes and periods', () => {
    expect(completedMinutes(at(59, 59.9))).toBe(59);
    expect(completedMinutes(at(60))).toBe(60);
    expect(classPeriod(359)).toBe(240);
    expect(classPeriod(360)).toBe(360);
    expect(classPeriod(14)).toBeNull();
  });
});
