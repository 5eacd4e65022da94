import { connectLabSocket, type LabState } from './lab-socket';
import { FakeSocket } from './testing/fake-socket';
import { labTile } from './testing/lab-tile';

const tile = labTile;
const serverTime = '2030-01-01T10:00:00.000Z';

describe('the lab overview socket', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    FakeSocket.all = [];
  });
  afterEach(() => jest.useRealTimers());

  it('takes every tile from LAB, one from TILE, and after the API restarts connects again with a new ticket by itself', async () => {
    const states: LabState[] = [];
    let tickets = 0;
    const close = connectLabSocket({
      url: () => Promise.resolve(`ws://lab.test/api/v1/lab/stream?ticket=t${++tickets}`),
      onState: (s) => states.push(s),
      createSocket: (url) => new FakeSocket(url),
    });
    await Promise.resolve();
    const first = FakeSocket.latest();
    first.open();
    first.receive({ event: 'LAB', data: { server_time: serverTime, tiles: [tile('p1'), tile('p2')] } });
    first.receive({ event: 'TILE', data: { server_time: serverTime, tile: tile('p2', { viewers: 3 }) } });
    expect(states.at(-1)?.tiles?.map((t) => [t.furnace.code, t.viewers])).toEqual([
      ['p1', 0],
      ['p2', 3],
    ]);

    // The API stops ("Service Restart"): the page says so, keeps the tiles, and is back at once with a new ticket.
    first.drop(1012);
    expect(states.at(-1)).toMatchObject({ connected: false });
    expect(states.at(-1)?.tiles).toHaveLength(2);
    jest.advanceTimersByTime(300);
    await Promise.resolve();
    const second = FakeSocket.latest();
    expect(second).not.toBe(first);
    expect(second.url).toContain('ticket=t2');
    second.open();
    second.receive({ event: 'LAB', data: { server_time: serverTime, tiles: [tile('p1', { viewers: 1 })] } });
    expect(states.at(-1)).toMatchObject({ connected: true });
    expect(states.at(-1)?.tiles?.map((t) => [t.furnace.code, t.viewers])).toEqual([['p1', 1]]);

    // Any other close: again after 5 s.
    second.drop();
    jest.advanceTimersByTime(4_000);
    await Promise.resolve();
    expect(FakeSocket.latest()).toBe(second);
    jest.advanceTimersByTime(1_500);
    await Promise.resolve();
    expect(FakeSocket.latest()).not.toBe(second);
    close();
  });
});
