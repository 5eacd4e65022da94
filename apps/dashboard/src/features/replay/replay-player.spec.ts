import type { HistoryDto } from '@furnace/api-client';
import type { DaqPayload } from '@furnace/contracts';
import { PROFILE_FIELDS } from '../../test/research-fixture';
import { profileOf } from '../criteria/use-criteria-inputs';
import { ReplayPlayer } from './replay-player';

/** A stored test at 1 Hz, -30 … 1200 s: T1 ('Tśr i Tmax') 20 °C until ignition, then +0.1 °C/s. */
const frameAt = (t: number): DaqPayload => ({
  time: t,
  pk: 20 + Math.max(0, t),
  thermocouples_out: [Math.round((20 + 0.1 * Math.max(0, t)) * 10) / 10],
});

/** requestAnimationFrame by hand: `frame(ms)` runs what is scheduled at that display time. */
function manualFrames() {
  let queued: ((now: number) => void)[] = [];
  return {
    request: (cb: (now: number) => void) => queued.push(cb),
    cancel: () => undefined,
    frame(now: number) {
      const run = queued;
      queued = [];
      for (const cb of run) cb(now);
    },
    pending: () => queued.length,
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function newPlayer() {
  const display = manualFrames();
  const requests: number[] = [];
  const player = new ReplayPlayer(
    -30,
    1200,
    (from, to) => {
      requests.push(from);
      const frames: DaqPayload[] = [];
      for (let t = Math.ceil(from); t <= Math.min(to, 1200); t++) frames.push(frameAt(t));
      return Promise.resolve(frames);
    },
    display,
  );
  return { player, display, requests };
}

describe('the replay player', () => {
  it('shows the first frame, then the frame of a seek on the next display frame', async () => {
    const { player, display, requests } = newPlayer();
    const shown = jest.fn();
    player.frames.subscribe(shown);
    display.frame(0);
    expect(player.getState().loading).toBe(true);
    await settle();
    display.frame(16);
    expect(player.frames.latest()?.time).toBe(-30);
    expect(player.getState().loading).toBe(false);

    player.seek(600.4);
    display.frame(32);
    await settle();
    display.frame(48);
    expect(player.frames.latest()).toEqual(frameAt(600));
    // Back in time: the earlier frame is shown (a live source would refuse it).
    player.seek(10);
    display.frame(64);
    await settle();
    display.frame(80);
    expect(player.frames.latest()?.time).toBe(10);
    expect(shown.mock.calls.map(([f]) => (f as DaqPayload).time)).toEqual([-30, 600, 10]);
    // The first window is still at hand: two reads in all.
    expect(requests).toEqual([-30, 570]);
    player.dispose();
  });

  it('plays at 60× a display frame at a time, reads the next window ahead, and stops at the end', async () => {
    const { player, display, requests } = newPlayer();
    display.frame(0);
    await settle();
    player.setSpeed(60);
    player.play();
    display.frame(1000);
    display.frame(2000); // one second of playback: a minute of the test
    expect(player.getState().clock.time).toBe(30);
    expect(player.frames.latest()?.time).toBe(30);
    // The next window is read while the current one plays.
    expect(requests).toContain(90);
    player.seek(1190);
    for (let now = 3000; now < 4000; now += 100) {
      display.frame(now);
      await settle();
    }
    expect(player.getState().clock).toMatchObject({ time: 1200, playing: false });
    expect(player.frames.latest()?.time).toBe(1200);
    expect(display.pending()).toBe(0);
    player.dispose();
  });

  it('stops playing when a window cannot be read, says why, and reads it again when played again', async () => {
    const display = manualFrames();
    let down = true;
    const reads: number[] = [];
    const player = new ReplayPlayer(
      0,
      600,
      (from) => {
        reads.push(from);
        return down ? Promise.reject(new Error('Service Unavailable')) : Promise.resolve([frameAt(from)]);
      },
      display,
    );
    player.play();
    display.frame(0);
    await settle();
    display.frame(16);
    expect(player.getState()).toMatchObject({ loading: true, error: new Error('Service Unavailable') });
    expect(player.getState().clock.playing).toBe(false);
    // The moment's window and the next one ahead, each asked once, not again in a loop.
    display.frame(32);
    await settle();
    expect(reads).toEqual([0, 120]);
    down = false;
    player.play();
    display.frame(48);
    await settle();
    display.frame(64);
    expect(reads.slice(2)).toContain(0);
    expect(player.getState()).toMatchObject({ loading: false, error: null });
    expect(player.frames.latest()?.time).toBe(0);
    player.dispose();
  });

  it('gives the criteria of the moment: T0 from before ignition, the max of the moment, d_e', async () => {
    const { player, display } = newPlayer();
    const history: HistoryDto | null = null;
    player.setCriteria(
      {
        profile: profileOf(PROFILE_FIELDS),
        markers: [{ thermo_id: 1, type_name: 'Tśr i Tmax' }],
        exclusions: [],
        observations: [],
        t0_override: null,
        auto_t0: 20,
      },
      history,
    );
    player.seek(600);
    display.frame(0);
    await settle();
    display.frame(16);
    const at600 = player.getState().criteria;
    expect(at600?.t0).toBe(20);
    expect(at600?.categories.find((c) => c.type_name === 'Tśr i Tmax')?.max).toBe(80);
    // The furnace (20 + t °C) far below ISO 834: d_e well under zero.
    expect(at600?.deviation.d_e).toBeLessThan(-10);
    // Back to 300 s: the engine starts over and shows that moment, not the newest seen.
    player.seek(300);
    display.frame(32);
    await settle();
    display.frame(48);
    expect(player.getState().criteria?.categories.find((c) => c.type_name === 'Tśr i Tmax')?.max).toBe(50);
    player.dispose();
  });
});
