import { classify, classPeriod, completedMinutes, criterionMinutes } from './classification';
import { classSystemOf } from './profiles';

const at = (minutes: number, seconds = 0) => minutes * 60 + seconds;
const door = classSystemOf('EN_1634_1');
const wall = classSystemOf('EN_1364_1');
const generic = classSystemOf('EN_1363_1');
const din = classSystemOf('DIN_4102_5');

describe('classify', () => {
  it('E at 63:40, I at 47:10, W never: "E 60, EI 45, EW 60"', () => {
    const times = { E: at(63, 40), I: at(47, 10), W: null, end: at(70) };
    expect(criterionMinutes(times)).toEqual({ E: 63, I: 47, W: 63 });
    expect(classify(times, { classes: door })).toBe('E 60, EI 45, EW 60');
    expect(classify(times, { classes: generic })).toBe('E 60, EI 45, EW 60');
  });

  // EN 13501-2 §7.5.5 (doors and shutters): EW only 20, 30, 60; E and EI up to 240, no 360.
  it('a door: EW only 20, 30 or 60, and no E 360', () => {
    const times = { E: null, I: at(50), W: at(50, 59), end: at(95) };
    expect(classify(times, { classes: door })).toBe('E 90, EI 45, EW 30');
    expect(classify(times, { classes: generic })).toBe('E 90, EI 45, EW 45');
    expect(classify({ E: null, I: null, W: null, end: at(370) }, { classes: door })).toBe('E 240, EI 240, EW 60');
    expect(classify({ E: null, I: null, W: null, end: at(370) }, { classes: generic })).toBe('E 360, EI 360, EW 360');
  });

  // EN 13501-2 §7.5.2 (non-loadbearing walls): E 20, 30, 60, 90, 120; EI 15 … 240; EW 20, 30, 60, 90, 120.
  it('a non-loadbearing wall gets no E 45 or EW 45, and E no more than 120', () => {
    expect(classify({ E: at(47), I: at(46), W: at(47), end: at(60) }, { classes: wall })).toBe('E 30, EI 45, EW 30');
    expect(classify({ E: null, I: at(17), W: null, end: at(19) }, { classes: wall })).toBe('EI 15');
    expect(classify({ E: null, I: null, W: null, end: at(250) }, { classes: wall })).toBe('E 120, EI 240, EW 120');
  });

  // DIN 4102-5: classes T 30 … T 180 for as long as both the room closure (E) and the temperatures (I) hold.
  it("a DIN 4102-5 test is classified in its own terms, never in EN 13501-2's", () => {
    expect(classify({ E: at(95), I: at(70), W: null, end: at(100) }, { classes: din })).toBe('T 60');
    expect(classify({ E: null, I: null, W: null, end: at(200) }, { classes: din })).toBe('T 180');
    expect(classify({ E: null, I: at(29, 59), W: null, end: at(40) }, { classes: din })).toBe('');
    expect(classify({ E: null, I: null, W: null, end: at(95), measured: { I: false } }, { classes: din })).toBe('');
  });

  it('caps I and W at E', () => {
    expect(classify({ E: at(31), I: at(70), W: at(40), end: at(90) }, { classes: generic })).toBe('E 30, EI 30, EW 30');
  });

  it('uses the end for criteria not reached', () => {
    expect(classify({ E: null, I: null, W: null, end: at(121, 30) }, { classes: generic })).toBe(
      'E 120, EI 120, EW 120',
    );
  });

  it('writes EI1 / EI2 for a door given its insulation class', () => {
    const times = { E: at(63, 40), I: at(47, 10), W: null, end: at(70) };
    expect(classify(times, { classes: door, insulation: 'I2' })).toBe('E 60, EI2 45, EW 60');
    expect(classify(times, { classes: door, insulation: 'I1' })).toBe('E 60, EI1 45, EW 60');
  });

  it('leaves out a criterion that was not measured', () => {
    const times = { E: at(63, 40), I: null, W: null, end: at(70) };
    expect(classify({ ...times, measured: { W: false } }, { classes: generic })).toBe('E 60, EI 60');
    expect(classify({ ...times, measured: { I: false, W: true } }, { classes: generic })).toBe('E 60, EW 60');
  });

  it('leaves out parts below their smallest period', () => {
    expect(classify({ E: at(40), I: at(14, 59), W: at(19), end: at(40) }, { classes: door })).toBe('E 30');
    expect(classify({ E: at(14), I: null, W: null, end: at(20) }, { classes: generic })).toBe('');
  });
});

describe('helpers', () => {
  it('completed minutes and periods', () => {
    expect(completedMinutes(at(59, 59.9))).toBe(59);
    expect(completedMinutes(at(60))).toBe(60);
    expect(classPeriod(359, [15, 240, 360])).toBe(240);
    expect(classPeriod(360, [15, 240, 360])).toBe(360);
    expect(classPeriod(14, [15, 240, 360])).toBeNull();
  });
});
