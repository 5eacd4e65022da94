import { randomUUID } from 'node:crypto';
import { type Bus, createBus } from './bus';

// The Redis bus is exercised when TEST_REDIS_URL names a server (CI: the machine's Redis); the
// in-process bus always.
const targets: [string, string | undefined][] = [['in-process', undefined]];
if (process.env.TEST_REDIS_URL) targets.push(['redis', process.env.TEST_REDIS_URL]);

const until = async (cond: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
};

describe.each(targets)('%s bus', (kind, url) => {
  let a: Bus;
  let b: Bus;
  beforeAll(async () => {
    a = await createBus(url);
    // Two processes share a Redis bus; in-process there is one bus per process.
    b = url ? await createBus(url) : a;
  });
  afterAll(async () => {
    await a.close();
    if (b !== a) await b.close();
  });

  it(`is ${kind}`, () => expect(a.kind).toBe(kind));

  it('delivers each message, in order, to every subscriber of the channel and to nobody else', async () => {
    const channel = `test:${randomUUID()}`;
    const got1: string[] = [];
    const got2: string[] = [];
    const other: string[] = [];
    const s1 = await b.subscribe(channel, (m) => got1.push(m));
    const s2 = await b.subscribe(channel, (m) => got2.push(m));
    const s3 = await b.subscribe(`${channel}:other`, (m) => other.push(m));
    for (let i = 0; i < 50; i++) await a.publish(channel, `m${i}`);
    await until(() => got1.length === 50 && got2.length === 50);
    const expected = Array.from({ length: 50 }, (_, i) => `m${i}`);
    expect(got1).toEqual(expected);
    expect(got2).toEqual(expected);
    expect(other).toEqual([]);
    await Promise.all([s1(), s2(), s3()]);
  });

  it('stops delivering after unsubscribe', async () => {
    const channel = `test:${randomUUID()}`;
    const got: string[] = [];
    const stop = await b.subscribe(channel, (m) => got.push(m));
    await a.publish(channel, 'before');
    await until(() => got.length === 1);
    await stop();
    await a.publish(channel, 'after');
    await new Promise((r) => setTimeout(r, 200));
    expect(got).toEqual(['before']);
  });

  it('delivers every channel under a prefix to a prefix subscriber, with its channel, and nothing else', async () => {
    const prefix = `test:${randomUUID()}:`;
    const got: [string, string][] = [];
    const stop = await b.subscribePrefix(prefix, (channel, message) => got.push([channel, message]));
    await a.publish(`${prefix}one`, 'm1');
    await a.publish(`other:${randomUUID()}`, 'not this');
    await a.publish(`${prefix}two`, 'm2');
    await until(() => got.length === 2);
    await new Promise((r) => setTimeout(r, 100));
    expect(got).toEqual([
      [`${prefix}one`, 'm1'],
      [`${prefix}two`, 'm2'],
    ]);
    await stop();
    await a.publish(`${prefix}three`, 'after');
    await new Promise((r) => setTimeout(r, 200));
    expect(got).toHaveLength(2);
  });
});
