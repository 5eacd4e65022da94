import type { CriteriaView, DaqPayload, UpdateKind } from '@furnace/contracts';
import { criteriaSnapshot } from '../../test/criteria-snapshot';
import { type ConnectionStatus, connectLiveSocket, type LiveSocket, streamUrl } from './live-socket';
import { FakeSocket } from './testing/fake-socket';

const RESEARCH = '3f1e1c9a-8d3b-4a6e-9f0e-1b2c3d4e5f60';
const frame = (time: number): DaqPayload => ({ time, pk: 500 + time, thermocouples_out: [20 + time] });
const status = { research_id: RESEARCH, server_time: '2025-11-22T08:00:00.000Z', last_time: null };

function start(overrides: Partial<Parameters<typeof connectLiveSocket>[0]> = {}) {
  const statuses: ConnectionStatus[] = [];
  const frames: DaqPayload[] = [];
  const updates: UpdateKind[] = [];
  const criteria: CriteriaView[] = [];
  const refused = jest.fn();
  let token = 'token-1';
  const log = jest.fn();
  const socket: LiveSocket = connectLiveSocket({
    url: () => `ws://host/stream?token=${token}`,
    onStatus: (s) => statuses.push(s),
    onFrame: (f) => frames.push(f),
    onUpdate: (k) => updates.push(k),
    onCriteria: (view) => criteria.push(view),
    onRefused: refused,
    createSocket: (url) => new FakeSocket(url),
    log,
    ...overrides,
  });
  return { socket, statuses, frames, updates, criteria, refused, log, setToken: (t: string) => (token = t) };
}

beforeEach(() => {
  FakeSocket.all = [];
  jest.useFakeTimers();
});
afterEach(() => jest.useRealTimers());

describe('streamUrl', () => {
  it('uses ws on http and wss on https, with the single-use ticket in the query', () => {
    expect(streamUrl({ protocol: 'http:', host: 'localhost:8000' }, RESEARCH, 'abc_DEF-1')).toBe(
      `ws://localhost:8000/api/v1/research/dane/stream/${RESEARCH}?ticket=abc_DEF-1`,
    );
    expect(streamUrl({ protocol: 'https:', host: 'lab.example.com' }, RESEARCH, 't')).toBe(
      `wss://lab.example.com/api/v1/research/dane/stream/${RESEARCH}?ticket=t`,
    );
  });
});

describe('connectLiveSocket', () => {
  it('sends STATUS on open and every 5 s; status 1 on open', () => {
    const { statuses } = start();
    const ws = FakeSocket.latest();
    expect(ws.sent).toEqual([]);
    ws.open();
    expect(ws.sent).toEqual(['STATUS']);
    expect(statuses).toEqual([1]);
    jest.advanceTimersByTime(4999);
    expect(ws.sent).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(ws.sent).toEqual(['STATUS', 'STATUS']);
    jest.advanceTimersByTime(10_000);
    expect(ws.sent).toHaveLength(4);
  });

  it('status 2 on DATA (the frame is delivered), 1 on a STATUS once frames stopped, 0 on close', () => {
    const { statuses, frames } = start();
    const ws = FakeSocket.latest();
    ws.open();
    ws.receive({ event: 'STATUS', data: status });
    ws.receive({ event: 'DATA', data: frame(1) });
    ws.receive({ event: 'DATA', data: frame(2) });
    expect(frames.map((f) => f.time)).toEqual([1, 2]);
    expect(statuses).toEqual([1, 2]);
    // The heartbeat's answer while frames flow: still receiving data.
    jest.advanceTimersByTime(1000);
    ws.receive({ event: 'STATUS', data: status });
    expect(statuses).toEqual([1, 2]);
    // No frame for longer than a heartbeat: connected, no data.
    jest.advanceTimersByTime(6000);
    ws.receive({ event: 'STATUS', data: status });
    expect(statuses).toEqual([1, 2, 1]);
    ws.drop();
    expect(statuses).toEqual([1, 2, 1, 0]);
  });

  it('status 0 on an error, which is logged', () => {
    const { statuses, log } = start();
    const ws = FakeSocket.latest();
    ws.open();
    ws.onerror?.({ type: 'error' });
    expect(statuses).toEqual([1, 0]);
    expect(log).toHaveBeenCalledWith('Live stream: socket error', { type: 'error' });
  });

  it('passes UPDATE kinds on and ignores messages that do not parse', () => {
    const { updates, frames, log } = start();
    const ws = FakeSocket.latest();
    ws.open();
    ws.receive({ event: 'UPDATE', data: 'RESEARCH' });
    ws.receive({ event: 'UPDATE', data: 'LIVESTREAM' });
    ws.receive({ event: 'UPDATE', data: 'THERMOCOUPLE' });
    ws.receive('not json');
    ws.receive({ event: 'DATA', data: { time: 'soon' } });
    ws.receive({ event: 'UPDATE', data: 'EVERYTHING' });
    expect(updates).toEqual(['RESEARCH', 'LIVESTREAM', 'THERMOCOUPLE']);
    expect(frames).toEqual([]);
    expect(log).toHaveBeenCalledTimes(3);
  });

  it('passes CRITERIA views on as the server sent them; one without the fields every reader needs is ignored', () => {
    const { criteria, statuses, frames, updates, log } = start();
    const ws = FakeSocket.latest();
    ws.open();
    const view: CriteriaView = {
      ...criteriaSnapshot({ t0: 21.5, classification: 'EI 30' }),
      ended: false,
      classification_withheld: false,
      ignition_at: '2026-01-01T10:00:00.000Z',
    };
    ws.receive({ event: 'CRITERIA', data: view });
    ws.receive({ event: 'CRITERIA', data: { ...view, t0: 22, ended: true } });
    expect(criteria).toEqual([view, { ...view, t0: 22, ended: true }]);
    // Not a frame: the status stays "connected, no data" and nothing else is told.
    expect(statuses).toEqual([1]);
    expect(frames).toEqual([]);
    expect(updates).toEqual([]);
    const { ended: _ended, ...withoutEnded } = view;
    ws.receive({ event: 'CRITERIA', data: withoutEnded });
    ws.receive({ event: 'CRITERIA', data: null });
    expect(criteria).toHaveLength(2);
    expect(log).toHaveBeenCalledTimes(2);
  });

  it('CRITERIA without an onCriteria (a caller that shows none) is dropped quietly', () => {
    const { log } = start({ onCriteria: undefined });
    const ws = FakeSocket.latest();
    ws.open();
    ws.receive({ event: 'CRITERIA', data: { ...criteriaSnapshot(), ended: false, ignition_at: null } });
    expect(log).not.toHaveBeenCalled();
  });

  it('reconnects 5 s after a close, asking for the URL again (a renewed token), and stops the old heartbeat', () => {
    const { setToken } = start();
    const first = FakeSocket.latest();
    first.open();
    first.drop();
    setToken('token-2');
    jest.advanceTimersByTime(4999);
    expect(FakeSocket.all).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(2);
    expect(FakeSocket.latest().url).toBe('ws://host/stream?token=token-2');
    jest.advanceTimersByTime(20_000);
    expect(first.sent).toEqual(['STATUS']);
  });

  it('reconnects at once (within 250 ms, not 5 s) when the server closes with 1012 (restarting); 5 s if that attempt is refused', () => {
    start();
    const first = FakeSocket.latest();
    first.open();
    first.receive({ event: 'DATA', data: frame(1) });
    first.drop(1012);
    jest.advanceTimersByTime(250);
    expect(FakeSocket.all).toHaveLength(2);
    // The next instance is not up either: the usual delay again.
    FakeSocket.latest().fail();
    jest.advanceTimersByTime(4999);
    expect(FakeSocket.all).toHaveLength(2);
    jest.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(3);
  });

  it('waits 5 s after a close with any other code (1001 going away, 1006 dropped)', () => {
    start();
    FakeSocket.latest().open();
    FakeSocket.latest().drop(1001);
    jest.advanceTimersByTime(4999);
    expect(FakeSocket.all).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('reports a connection that closed before it opened (refused upgrade), and keeps retrying', () => {
    const { refused, statuses } = start();
    FakeSocket.latest().fail();
    expect(refused).toHaveBeenCalledTimes(1);
    expect(statuses).toEqual([]); // It never left 0.
    jest.advanceTimersByTime(5000);
    FakeSocket.latest().drop();
    expect(refused).toHaveBeenCalledTimes(2);
    jest.advanceTimersByTime(5000);
    expect(FakeSocket.all).toHaveLength(3);
    FakeSocket.latest().open();
    FakeSocket.latest().drop();
    expect(refused).toHaveBeenCalledTimes(2);
  });

  it('close() ends it for good: the socket is closed and never reopened', () => {
    const { socket, statuses } = start();
    const ws = FakeSocket.latest();
    ws.open();
    socket.close();
    expect(ws.closed).toBe(true);
    expect(statuses).toEqual([1, 0]);
    jest.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(ws.sent).toEqual(['STATUS']);
  });

  it('reconnect() replaces the connection at once', () => {
    const { socket } = start();
    const first = FakeSocket.latest();
    first.open();
    socket.reconnect();
    expect(first.closed).toBe(true);
    expect(FakeSocket.all).toHaveLength(2);
    // The old socket's late close does not schedule another connection.
    first.onclose?.({});
    jest.advanceTimersByTime(10_000);
    expect(FakeSocket.all).toHaveLength(2);
  });
});

describe('connectLiveSocket with a ticket bought per connection', () => {
  it('connects once the ticket arrives; a refused ticket counts as refused and is retried later', async () => {
    let n = 0;
    const { refused } = start({
      url: () => {
        n++;
        return n === 1 ? Promise.reject(new Error('403')) : Promise.resolve(`ws://host/stream?ticket=t${n}`);
      },
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(FakeSocket.all).toHaveLength(0);
    expect(refused).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(5000);
    await Promise.resolve();
    await Promise.resolve();
    expect(FakeSocket.latest().url).toBe('ws://host/stream?ticket=t2');
  });

  it('drops a ticket that arrives after the socket was closed for good', async () => {
    let resolve!: (url: string) => void;
    const { socket } = start({ url: () => new Promise<string>((r) => (resolve = r)) });
    socket.close();
    resolve('ws://host/stream?ticket=late');
    await Promise.resolve();
    await Promise.resolve();
    expect(FakeSocket.all).toHaveLength(0);
  });
});
