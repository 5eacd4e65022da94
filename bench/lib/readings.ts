import { pipeline } from 'node:stream/promises';
import type { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { type DaqPayload, daqPayloadSchema } from '@furnace/contracts';
import { realArrayLiteral } from '@furnace/ingest/testing';
import { createFrameGenerator } from '@furnace/simulator';

/**
 * `count` simulated frames of `channels` thermocouples, `1 / rate` seconds apart from `from`, as the
 * ingest keeps them (the simulator's broken thermocouple nulled and flagged).
 */
export function simulatedFrames(count: number, channels: number, rate = 1, from = 0): DaqPayload[] {
  const generate = createFrameGenerator({ channels, seed: 834 });
  return Array.from({ length: count }, (_, i) => daqPayloadSchema.parse(generate(from + i / rate)));
}

/**
 * The baseline write: frames as multi-row INSERTs of `batch` rows on one connection, in sequence,
 * with the row's `ts` computed here: no lookup, no conflict handling, nothing returned. The
 * thermocouples go as the ingest sends them (an array literal), so the two differ in what the
 * ingest adds, not in how values are encoded. Returns the frames written.
 */
export async function insertRaw(
  client: Client,
  researchId: string,
  startAt: Date,
  frames: readonly DaqPayload[],
  batch = 500,
): Promise<number> {
  let written = 0;
  for (let offset = 0; offset < frames.length; offset += batch) {
    const chunk = frames.slice(offset, offset + batch);
    const values: unknown[] = [];
    const tuples = chunk.map((f) => {
      const n = values.length;
      values.push(
        researchId,
        f.time,
        new Date(startAt.getTime() + f.time * 1000),
        f.radiance ?? null,
        f.pressure ?? null,
        f.pk ?? null,
        f.thermocouples_out ? realArrayLiteral(f.thermocouples_out) : null,
      );
      return `($${n + 1}, $${n + 2}, $${n + 3}, $${n + 4}, $${n + 5}, $${n + 6}, $${n + 7})`;
    });
    await client.query(
      `INSERT INTO reading (research_id, "time", ts, radiance, pressure, pk, thermocouples) VALUES ${tuples.join(', ')}`,
      values,
    );
    written += chunk.length;
  }
  return written;
}

/**
 * The fastest way PostgreSQL loads rows: COPY … FROM STDIN (text format), `batch` rows a COPY, the
 * same rows as insertRaw. Returns the frames written.
 */
export async function copyRaw(
  client: Client,
  researchId: string,
  startAt: Date,
  frames: readonly DaqPayload[],
  batch = 500,
): Promise<number> {
  const cell = (v: number | null | undefined) => (v === null || v === undefined ? '\\N' : String(v));
  let written = 0;
  for (let offset = 0; offset < frames.length; offset += batch) {
    const chunk = frames.slice(offset, offset + batch);
    let text = '';
    for (const f of chunk) {
      const ts = new Date(startAt.getTime() + f.time * 1000).toISOString();
      const thermo = f.thermocouples_out ? realArrayLiteral(f.thermocouples_out) : '\\N';
      text += `${researchId}\t${f.time}\t${ts}\t${cell(f.radiance)}\t${cell(f.pressure)}\t${cell(f.pk)}\t${thermo}\n`;
    }
    const stream = client.query(
      copyFrom('COPY reading (research_id, "time", ts, radiance, pressure, pk, thermocouples) FROM STDIN'),
    );
    await pipeline(async function* () {
      yield Buffer.from(text);
    }, stream);
    written += chunk.length;
  }
  return written;
}
