import { mulberry32 as random } from '@furnace/simulator';
import { createDataSource } from '@furnace/db';
import { createTestDatabase, type TestDatabase } from '@furnace/db/testing';
import { insertResearch } from '@furnace/testing';
import type { DataSource } from 'typeorm';
import { RealArrayReader } from '../src/history/real-array';
import { CriteriaRepository } from '../src/criteria/criteria.repository';
import { fromReal } from '../src/criteria/criteria-frames';

/*
 * The frames the criteria keeper reads (COPY's binary form, or the text form where COPY is not served)
 * must be the numbers the text form reads as, to the last bit: a pass over them equals one over the
 * text (exports, the report) — docs/architecture.md, "The criteria: computed once, kept, pushed".
 */

describe('the frames read for the criteria', () => {
  let db: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = createDataSource({ url: db.url, poolSize: 2 });
    await dataSource.initialize();
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  it('take each real as the number its text form reads as (ties to even, exponents, signs)', async () => {
    const rnd = random(3);
    const sample = [0, -0, 1e-7, -2.5e-5, 123.456, 2012.90625, 1076.90625, 1648.53125, 0.1, 1500, -50, 3.4e38, 1e10, 16777217, 123456789];
    for (let i = 0; i < 3000; i++) sample.push(Math.round((rnd() - 0.2) * 3000 * 1024) / 1024, Math.round(rnd() * 20000) / 10, (rnd() - 0.5) * 3000, rnd() * 1e-3);
    const rows: { t: string; f: number }[] = await dataSource.query('SELECT u::real::text AS t, u::real::float8 AS f FROM unnest($1::float8[]) u', [sample]);
    const wrong = rows.filter((r) => !Object.is(fromReal(r.f), Number(r.t)));
    expect(wrong).toEqual([]);
  });

  it('are the stored frames as their text form reads, page by page, whether read by COPY or as text', async () => {
    const researchId = await insertResearch(db.url);
    const rnd = random(7);
    const frames = Array.from({ length: 230 }, (_, i) => {
      const time = i - 30 + (i % 3) * 0.25;
      const values = Array.from({ length: 12 }, (_, c) => (rnd() < 0.05 ? null : Math.round((20 + i * (c + 1) + rnd()) * 1000) / 1000 + (c === 3 ? 0.03125 : 0)));
      return {
        time,
        pk: i % 17 === 0 ? null : Math.round(rnd() * 1e5) / 64,
        pressure: i % 5 === 0 ? null : (rnd() - 0.5) * 40,
        radiance: i % 7 === 0 ? null : rnd() * 1e-6,
        thermocouples: i % 23 === 0 ? null : `{${values.map((v) => (v === null ? 'NULL' : String(v))).join(',')}}`,
        faults: i % 11 === 0 ? `{${1 + (i % 12)}}` : i % 13 === 0 ? '{}' : null,
      };
    });
    await dataSource.query(
      `INSERT INTO reading (research_id, "time", ts, pk, pressure, radiance, thermocouples, faults, received_at)
       SELECT $1, f.t, now(), f.pk, f.pressure, f.radiance, f.th::real[], f.faults::smallint[], now()
       FROM unnest($2::float8[], $3::real[], $4::real[], $5::real[], $6::text[], $7::text[]) AS f(t, pk, pressure, radiance, th, faults)`,
      [researchId, frames.map((f) => f.time), frames.map((f) => f.pk), frames.map((f) => f.pressure), frames.map((f) => f.radiance), frames.map((f) => f.thermocouples), frames.map((f) => f.faults)],
    );
    const repo = new CriteriaRepository(dataSource);
    // The text form, as the history and the exports read it.
    const reader = new RealArrayReader();
    const expected = (await repo.frames(researchId, null, 10_000)).map((row) => ({
      time: row.time,
      pk: row.pk,
      pressure: row.pressure,
      radiance: row.radiance,
      thermocouples_out: row.thermocouples === null ? undefined : Array.from(reader.read(row.thermocouples)),
      faults: row.faults !== null && row.faults.length > 0 ? row.faults : undefined,
    }));
    const read = async (after: number | null) => {
      const out: unknown[] = [];
      for await (const page of repo.framePages(researchId, after, 40)) {
        for (let k = 0; k < page.count; k++) {
          const frame = page.frame(k);
          out.push({ ...frame, thermocouples_out: frame.thermocouples_out === undefined ? undefined : Array.from(frame.thermocouples_out) });
        }
      }
      return out;
    };
    // toEqual tells 0 from −0 and NaN from null: bit for bit.
    expect(await read(null)).toEqual(expected);
    expect(await read(frames[100]!.time)).toEqual(expected.slice(101));
    // Where COPY is not served, the same frames as text.
    (repo as unknown as { copyServed: boolean | null }).copyServed = false;
    expect(await read(frames[100]!.time)).toEqual(expected.slice(101));
  });
});
