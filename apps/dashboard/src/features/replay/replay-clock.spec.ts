import { formatTestTime } from '@furnace/contracts';
import { createClock, pause, play, seek, setBounds, setSpeed, tick } from './replay-clock';

describe('the replay clock', () => {
  const clock = createClock(-30, 1200);

  it('starts paused at the first frame, at 1×', () => {
    expect(clock).toEqual({ start: -30, end: 1200, time: -30, playing: false, speed: 1 });
  });

  it('moves by speed × elapsed while playing, and not at all while paused', () => {
    expect(tick(clock, 1000).time).toBe(-30);
    const playing = play(clock);
    expect(tick(playing, 1000).time).toBe(-29);
    expect(tick(setSpeed(playing, 10), 500).time).toBe(-25);
    expect(tick(setSpeed(playing, 60), 1000).time).toBe(30);
    expect(tick(setSpeed(playing, 60), 16.7).time).toBeCloseTo(-30 + 1.002, 6);
    expect(tick(pause(tick(playing, 1000)), 1000).time).toBe(-29);
  });

  it('stops at the end of the test, and plays from the start again when asked there', () => {
    const nearEnd = seek(setSpeed(play(clock), 60), 1190);
    const ended = tick(nearEnd, 1000);
    expect(ended).toMatchObject({ time: 1200, playing: false });
    expect(tick(ended, 1000).time).toBe(1200);
    expect(play(ended)).toMatchObject({ time: -30, playing: true });
  });

  it('keeps a seek within the test and ignores one to no number', () => {
    expect(seek(clock, 600).time).toBe(600);
    expect(seek(clock, 5000).time).toBe(1200);
    expect(seek(clock, -100).time).toBe(-30);
    expect(seek(clock, Number.NaN)).toBe(clock);
    // Seeking while playing goes on playing from there.
    expect(seek(play(clock), 300)).toMatchObject({ time: 300, playing: true });
  });

  it('does not play a test of one frame', () => {
    expect(play(createClock(5, 5)).playing).toBe(false);
  });

  it('keeps the moment when the test grows, and pulls it in when it shrinks', () => {
    expect(setBounds(seek(clock, 600), -30, 1800)).toMatchObject({ end: 1800, time: 600 });
    expect(setBounds(seek(clock, 600), 0, 300)).toMatchObject({ start: 0, end: 300, time: 300 });
  });

  it('writes a moment before ignition with a minus sign', () => {
    expect(formatTestTime(-30)).toBe('−00:00:30');
    expect(formatTestTime(3725.4)).toBe('01:02:05');
  });
});
