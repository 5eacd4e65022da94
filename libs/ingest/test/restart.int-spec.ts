import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { MqttClient } from 'mqtt';
import { daqTopic } from '@furnace/contracts';
import { createTestDatabase, type TestDatabase } from '@furnace/db/testing';
import {
  connectPublisher,
  countReadings,
  dropSession,
  frame,
  insertResearch,
  startTestBroker,
  storedTimes,
  TEST_REDIS_URL,
  type TestBroker,
  uniqueId,
  waitFor,
} from '@furnace/testing';

const ROOT = join(__dirname, '..', '..', '..');

/** The ingest in a child process (compiled on the fly by @swc-node/register), resolved once it has subscribed. */
function spawnIngest(env: Record<string, string>, topics: string[], sharedGroup: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '-r',
      '@swc-node/register',
      join(__dirname, 'fixtures', 'ingest-process.ts'),
      JSON.stringify({ env, topics, sharedGroup }),
    ],
    {
      cwd: ROOT,
      env: { ...process.env, SWC_NODE_PROJECT: join(ROOT, 'tsconfig.spec.json') },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`ingest process exited with ${code} before it was ready`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes('ready\n')) return;
      child.removeAllListeners('exit');
      resolve(child);
    });
  });
}

function kill(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe('ingest killed mid-stream and restarted (persistent session)', () => {
  let db: TestDatabase;
  let broker: TestBroker;
  let publisher: MqttClient;
  const children: ChildProcess[] = [];
  let clientId = '';

  beforeAll(async () => {
    [db, broker] = await Promise.all([createTestDatabase(), startTestBroker()]);
    publisher = await connectPublisher(broker.url);
  });
  afterAll(async () => {
    for (const child of children) await kill(child);
    // Also when the test failed half-way: the machine's Mosquitto would keep the session and its queue.
    if (clientId) await dropSession(broker.url, clientId).catch(() => undefined);
    await publisher?.endAsync();
    await broker?.stop();
    await db?.drop();
  });

  it('loses no frame: what was in flight and what was published while it was down are stored, once', async () => {
    const researchId = await insertResearch(db.url);
    clientId = uniqueId('ingest-restart');
    const group = uniqueId('group');
    const env = {
      NODE_ENV: 'test',
      DATABASE_URL: db.url,
      // What the standalone configuration the fixture loads asks for with DATABASE_URL; the ingest uses neither.
      SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
      FIRST_SUPERUSER_PASSWORD: 'unused-by-the-ingest',
      MQTT_URL: broker.url,
      MQTT_CLIENT_ID: clientId,
      MQTT_SHARED_SUBSCRIPTION: broker.shared ? 'true' : 'false',
      REDIS_URL: TEST_REDIS_URL ?? '',
    };
    const topics = [daqTopic(researchId)];
    const first = await spawnIngest(env, topics, group);
    children.push(first);

    // A stream that runs through the kill and the restart, published as fast as the broker takes it.
    // Kept under Mosquitto's default max_queued_messages (1000 per offline session): beyond that
    // the broker itself drops messages, which is the broker's configuration, not the ingest's.
    const total = 800;
    let published = 0;
    const stream = (async () => {
      for (let i = 0; i < total; i++) {
        await publisher.publishAsync(topics[0]!, JSON.stringify(frame(i * 0.1)), { qos: 1 });
        published++;
        // Let the kill happen while frames keep coming.
        if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    })();

    await waitFor('some frames stored before the kill', async () => (await countReadings(db.url, researchId)) >= 150);
    await kill(first);
    const storedAtKill = await countReadings(db.url, researchId);
    const publishedAtKill = published;

    await waitFor(
      'more frames published while the ingest is down',
      () => published >= Math.min(total, publishedAtKill + 200),
    );
    const second = await spawnIngest(env, topics, group);
    children.push(second);
    await stream;

    await waitFor('every frame stored', async () => (await countReadings(db.url, researchId)) >= total);
    const times = await storedTimes(db.url, researchId);
    const expected = Array.from({ length: total }, (_, i) => i * 0.1);
    const missing = expected.filter((t) => !times.includes(t));
    console.log(
      `kill/restart: ${publishedAtKill} published and ${storedAtKill} stored when killed, ${total} published in all, ` +
        `${times.length} stored, lost ${missing.length}, duplicates ${times.length - new Set(times).size}`,
    );
    expect(missing).toEqual([]);
    expect(times).toHaveLength(total);

    second.stdin!.end();
    await new Promise((resolve) => second.once('exit', resolve));
  });
});
