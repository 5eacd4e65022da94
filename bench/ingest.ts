import { Client } from 'pg';
import { Registry } from 'prom-client';
import { createBus } from '@furnace/bus';
import { daqTopic, type DaqPayload } from '@furnace/contracts';
import { IngestMetrics, IngestService, ReadingsRepository, ResearchDirectory } from '@furnace/ingest/testing';
import { connectPublisher, countReadings, insertResearch, quietLogger, withPg } from '@furnace/testing';
import { copyRaw, insertRaw, simulatedFrames } from './lib/readings';
import { configured } from './lib/env';
import { type BenchServices, startFurnace } from './lib/services';
import { fmt, ratio, sleep, table } from './lib/stats';

/*
 * Ingest: how many frames of 300 thermocouples a second reach the readings table, sustained,
 * (1) as raw multi-row INSERTs (the baseline: the database's own speed for these rows),
 * (2) through the ingest's write path (IngestService: parse and validate each message, batch,
 *     idempotent INSERT … ON CONFLICT DO NOTHING RETURNING and the rollups in its transaction, publish
 *     on the bus, release the ack),
 *     fed with as many unacknowledged messages as a broker's in-flight window allows,
 * (3) end to end: a publisher → the broker → the ingest process → the database,
 * and, first, the time (2) takes to acknowledge the last of the 14 400 frames of a 4-hour test at 1 Hz
 * (frames 1 s apart: each 500-frame batch spans 50 buckets of 10 s), the measure of issue 18.
 * The ingest also folds every frame into the rollups (libs/db/src/rollups.ts), whose category part
 * works on the research's thermocouple markers: (2) and (3) run on a research with markers on every
 * channel, as a configured test has (and one exclusion), and (2) once more on one without any.
 */

/**
 * A thermocouple config for `researchId` with a marker on each of `channels` channels, in the
 * measurement types of a door test (two thirds for the mean and max, a fifth near the edge, the rest
 * on the frame), and one thermocouple excluded from 60 s on.
 */
async function insertMarkers(url: string, researchId: string, channels: number): Promise<void> {
  await withPg(url, async (c) => {
    const { rows } = await c.query<{ id: string }>(
      `INSERT INTO thermo_config (research_id, image_filename, image_mime, image_width, image_height, image_sha256, image_data, config_filename, config_data)
       VALUES ($1, 'specimen.png', 'image/png', 800, 500, $2, ''::bytea, 'config.txt', ''::bytea) RETURNING id`,
      [researchId, '0'.repeat(64)],
    );
    await c.query(
      `INSERT INTO thermo_marker (config_id, thermo_id, name, type_name, color_hex, item_x, item_y, item_size, label_x, label_y, label_width, label_height)
       SELECT $1, i, 'T' || i, CASE WHEN i <= $2 * 2 / 3 THEN 'Tśr i Tmax' WHEN i <= $2 * 13 / 15 THEN 'Tmax' ELSE 'Tmax ościeżnicy' END,
         '#E53935', 10, 10, 12, 24, 0, 58, 22
       FROM generate_series(1, $2::int) AS i`,
      [rows[0]!.id, channels],
    );
    await c.query(
      `INSERT INTO thermo_exclusion (research_id, thermo_id, from_time, reason) VALUES ($1, 6, 60, 'bench: a broken wire')`,
      [researchId],
    );
  });
}

interface Throughput {
  label: string;
  frames: number;
  seconds: number;
  framesPerSecond: number;
  note?: string;
}

export interface IngestResult {
  channels: number;
  baseline: Throughput;
  /** COPY FROM STDIN, the same rows in batches of the same size (not on the embedded PGlite, whose socket server does not take COPY FROM STDIN). */
  copy: Throughput | null;
  paths: Throughput[];
  /** 14 400 frames of a 4-hour test at 1 Hz through the write path (1 000 in flight, markers): the time until the last is acknowledged. */
  fourHours: Throughput;
}

/** Frames for a phase: `pool` distinct payloads repeated with increasing times (generating is not what is measured). */
function frameSource(pool: DaqPayload[], step: number) {
  let i = 0;
  return () => {
    const payload = { ...pool[i % pool.length]!, time: Math.round(i * step * 1000) / 1000 };
    i++;
    return payload;
  };
}

/**
 * The same as MQTT payloads, serialised once: only the time changes (encoding 300 values a message
 * would cost the producer, which shares the machine, as much as a good part of what is measured).
 */
function jsonSource(pool: DaqPayload[], step: number) {
  const rests = pool.map(({ time: _time, ...rest }) => JSON.stringify(rest).slice(1));
  let i = 0;
  return () => {
    const json = `{"time":${Math.round(i * step * 1000) / 1000},${rests[i % rests.length]}`;
    i++;
    return json;
  };
}

async function rawBaseline(
  services: BenchServices,
  pool: DaqPayload[],
  seconds: number,
  how: 'insert' | 'copy',
): Promise<Throughput> {
  const researchId = await insertResearch(services.db.url);
  const client = new Client({ connectionString: services.db.url });
  await client.connect();
  try {
    const next = frameSource(pool, 0.01);
    const write = how === 'insert' ? insertRaw : copyRaw;
    const start = performance.now();
    let frames = 0;
    while (performance.now() - start < seconds * 1000) {
      frames += await write(client, researchId, new Date(), Array.from({ length: 500 }, next));
    }
    const elapsed = (performance.now() - start) / 1000;
    const label =
      how === 'insert'
        ? 'raw multi-row INSERT, 500 rows a statement (baseline)'
        : 'COPY FROM STDIN, 500 rows a COPY (baseline)';
    return { label, frames, seconds: elapsed, framesPerSecond: frames / elapsed };
  } finally {
    await client.end();
  }
}

/**
 * IngestService fed directly, with at most `window` messages unacknowledged (a broker's max_inflight_messages),
 * for `seconds` — or, with `frames`, until that many frames `step` seconds apart are acknowledged (the time is then
 * the last acknowledgement's).
 */
async function writePath(
  services: BenchServices,
  pool: DaqPayload[],
  seconds: number,
  window: number,
  markers: boolean,
  test?: { frames: number; step: number },
): Promise<Throughput> {
  const researchId = await insertResearch(services.db.url);
  if (markers) await insertMarkers(services.db.url, researchId, pool[0]!.thermocouples_out?.length ?? 0);
  const repository = new ReadingsRepository(services.db.url);
  const bus = await createBus(services.redisUrl);
  const service = new IngestService(
    repository,
    bus,
    new ResearchDirectory((id) => repository.findResearch(id)),
    new IngestMetrics(new Registry()),
    quietLogger(),
  );
  const topic = daqTopic(researchId);
  const next = jsonSource(pool, test?.step ?? 0.01);
  let outstanding = 0;
  let acked = 0;
  let sent = 0;
  let wake: (() => void) | null = null;
  try {
    const start = performance.now();
    const end = test ? Infinity : start + seconds * 1000;
    while (test ? acked < test.frames : performance.now() < end) {
      while (outstanding < window && (!test || sent < test.frames)) {
        outstanding++;
        sent++;
        // The service releases each message's ack once, after its batch is committed.
        const ack = {
          release() {
            outstanding--;
            acked++;
            wake?.();
          },
        };
        const pending = service.receive(topic, Buffer.from(next()), ack);
        if (pending) await pending;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 1_000);
      });
      wake = null;
    }
    const elapsed = (performance.now() - start) / 1000;
    // Acked means committed: acks are released only after the write.
    if (test) {
      return {
        label: `${fmt(test.frames)} frames ${test.step} s apart (a ${((test.frames * test.step) / 3600).toFixed(0)}-hour test), ${window} in flight: the last acknowledged after`,
        frames: acked,
        seconds: elapsed,
        framesPerSecond: acked / elapsed,
      };
    }
    return {
      label: `ingest write path, ${window} messages in flight${window === 20 ? " (Mosquitto's default)" : window === 1000 ? ' (infra/mosquitto/mosquitto.conf)' : ''}${markers ? '' : ', research without markers'}`,
      frames: acked,
      seconds: elapsed,
      framesPerSecond: acked / elapsed,
    };
  } finally {
    await service.stop();
    await repository.close();
    await bus.close();
  }
}

/** Publisher → broker → the ingest as deployed; frames stored per second while the broker has some waiting. */
async function endToEnd(services: BenchServices, pool: DaqPayload[], seconds: number): Promise<Throughput> {
  const system = await startFurnace(services);
  const publisher = await connectPublisher(services.broker.url);
  try {
    const researchId = await insertResearch(services.db.url);
    await insertMarkers(services.db.url, researchId, pool[0]!.thermocouples_out?.length ?? 0);
    const topic = daqTopic(researchId);
    const next = jsonSource(pool, 0.01);
    // Warm-up: the ingest's first lookup of the research.
    await publisher.publishAsync(topic, next(), { qos: 1 });
    await sleep(500);
    const before = await countReadings(services.db.url, researchId);
    const start = performance.now();
    const end = start + seconds * 1000;
    let published = 0;
    let stored = 0;
    let counted = 0;
    // Keeps at most ~250 frames waiting for the ingest (a tenth of a second of its work): the
    // broker's queue for a subscriber is bounded (Mosquitto's max_queued_messages, 1000 by default)
    // and what is beyond it is dropped.
    while (performance.now() < end) {
      if (performance.now() - counted > 50) {
        stored = (await countReadings(services.db.url, researchId)) - before;
        counted = performance.now();
      }
      if (published - stored >= 250) {
        await sleep(5);
        continue;
      }
      for (let i = 0; i < 50; i++, published++) publisher.publish(topic, next(), { qos: 1 });
      await sleep(0);
    }
    stored = (await countReadings(services.db.url, researchId)) - before;
    const elapsed = (performance.now() - start) / 1000;
    // Let the backlog drain (until nothing has moved for 3 s, at most 30 s) so that nothing runs on into the next measurement.
    const drainUntil = performance.now() + 30_000;
    let last = -1;
    let lastMoved = performance.now();
    for (;;) {
      const now = await countReadings(services.db.url, researchId);
      if (now - before >= published || performance.now() > drainUntil || performance.now() - lastMoved > 3_000) break;
      if (now !== last) lastMoved = performance.now();
      last = now;
      await sleep(250);
    }
    const final = (await countReadings(services.db.url, researchId)) - before;
    return {
      label: `end to end: MQTT → ${services.broker.shared ? 'broker' : 'aedes'} → ingest → database`,
      frames: stored,
      seconds: elapsed,
      framesPerSecond: stored / elapsed,
      note: `${published} published, ${final} stored after draining${final < published ? `: ${published - final} lost` : ''}`,
    };
  } finally {
    await publisher.endAsync();
    await system.stop();
  }
}

export async function runIngest(
  services: BenchServices,
  options: { channels: number; seconds: number },
  log: (line: string) => void,
): Promise<IngestResult> {
  const pool = simulatedFrames(500, options.channels);
  const copy = configured.database ? await rawBaseline(services, pool, options.seconds, 'copy') : null;
  if (copy) log(`  ${copy.label}: ${copy.framesPerSecond.toFixed(0)} frames/s`);
  else log('  COPY FROM STDIN: skipped (the embedded PGlite does not take it)');
  const baseline = await rawBaseline(services, pool, options.seconds, 'insert');
  log(`  ${baseline.label}: ${baseline.framesPerSecond.toFixed(0)} frames/s`);
  const fourHours = await writePath(services, pool, 0, 1000, true, { frames: 14_400, step: 1 });
  log(`  ${fourHours.label} ${fourHours.seconds.toFixed(2)} s (${fourHours.framesPerSecond.toFixed(0)} frames/s)`);
  const paths: Throughput[] = [];
  for (const run of [
    () => writePath(services, pool, options.seconds, 1000, true),
    () => writePath(services, pool, options.seconds, 1000, false),
    () => writePath(services, pool, options.seconds, 20, true),
    () => endToEnd(services, pool, options.seconds),
  ]) {
    const result = await run();
    paths.push(result);
    log(`  ${result.label}: ${result.framesPerSecond.toFixed(0)} frames/s${result.note ? ` (${result.note})` : ''}`);
  }
  return { channels: options.channels, baseline, copy, paths, fourHours };
}

export function ingestReport(result: IngestResult): string {
  return [
    `Ingest: sustained frames/s into the readings table, ${result.channels} thermocouples a frame (~1.5 kB of JSON); ` +
      `the write path and end to end on a research with a marker on every channel (3 measurement types, one exclusion) unless noted:`,
    table(
      ['path', 'frames/s', '÷ raw INSERT', '÷ COPY', 'frames', 'note'],
      [...(result.copy ? [result.copy] : []), result.baseline, ...result.paths].map((t) => [
        t.label,
        fmt(t.framesPerSecond),
        ratio(t.framesPerSecond, result.baseline.framesPerSecond),
        result.copy ? ratio(t.framesPerSecond, result.copy.framesPerSecond) : '–',
        fmt(t.frames),
        t.note ?? '',
      ]),
    ),
    (result.copy
      ? `Multi-row INSERT ÷ COPY: ${ratio(result.baseline.framesPerSecond, result.copy.framesPerSecond)} (goal ≥ 0.5×: ${
          result.baseline.framesPerSecond >= 0.5 * result.copy.framesPerSecond ? 'met' : 'NOT met'
        }). `
      : '') +
      `The ingest writes with INSERT … ON CONFLICT DO NOTHING RETURNING (a redelivered frame is skipped), and in the same transaction ` +
      `adds the rows it inserted to the rollups, which COPY cannot do. 14 400 frames (4 h at 1 Hz) take ` +
      `${(14_400 / result.paths[0]!.framesPerSecond).toFixed(1)} s at the first write path's rate; fed as a 4-hour test ` +
      `(frames 1 s apart, 1 000 in flight) the last of them was acknowledged after ${result.fourHours.seconds.toFixed(2)} s ` +
      `(${fmt(result.fourHours.framesPerSecond)} frames/s; the goal of issue 18: ≤ 3 s).`,
  ].join('\n\n');
}
