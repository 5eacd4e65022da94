import { Client } from 'pg';
import { mulberry32 as random } from '@furnace/simulator';
import { createTestDatabase, type TestDatabase } from '@furnace/db/testing';
import { RealArrayReader } from '../src/history/real-array';

/*
 * The frames' thermocouples are read in PostgreSQL's binary form of a real[] (array_send) and must give
 * exactly the numbers its text form gives: what the engine computes from must not depend on which form
 * was read. Checked against the database's own printing (float4out), on whichever database the tests run.
 */

let db: TestDatabase;
let client: Client;

beforeAll(async () => {
  db = await createTestDatabase();
  client = new Client({ connectionString: db.url });
  await client.connect();
}, 120_000);

afterAll(async () => {
  await client?.end();
  await db?.drop();
});

/** Both forms of the real[] `literal` (an array literal), as the driver hands them over. */
async function bothForms(literal: string): Promise<{ text: string; binary: Buffer }> {
  const { rows } = await client.query<{ text: string; binary: Buffer }>(
    'SELECT $1::real[]::text AS text, array_send($1::real[]) AS binary',
    [literal],
  );
  return rows[0]!;
}

function expectSameNumbers(literal: string, text: string, binary: Buffer): void {
  const reader = new RealArrayReader();
  const fromText = Array.from(reader.read(text));
  const fromBinary = Array.from(reader.read(binary));
  expect(fromBinary).toHaveLength(fromText.length);
  const differing = fromText.flatMap((value, i) =>
    Object.is(value, fromBinary[i]) ? [] : [`${i}: text ${value}, binary ${fromBinary[i]}`],
  );
  expect({ literal: literal.slice(0, 80), differing: differing.slice(0, 10) }).toEqual({
    literal: literal.slice(0, 80),
    differing: [],
  });
}

describe('RealArrayReader on what the database sends', () => {
  it('reads NULL elements, an empty array and the special values alike in both forms', async () => {
    for (const literal of [
      '{}',
      '{NULL}',
      '{21.4,NULL,-0,0,NaN,Infinity,-Infinity}',
      '{1e-30,3.4028235e+38,-1.5e-05}',
    ]) {
      const { text, binary } = await bothForms(literal);
      expectSameNumbers(literal, text, binary);
    }
    const { binary } = await bothForms('{21.4,NULL,-3.5}');
    expect(Array.from(new RealArrayReader().read(binary))).toEqual([21.4, Number.NaN, -3.5]);
  });

  it('gives for every float4 the number its printed text gives: DAQ values and random bit patterns', async () => {
    const rnd = random(834);
    const bits = new Uint32Array(1);
    const asFloat = new Float32Array(bits.buffer);
    for (let batch = 0; batch < 20; batch++) {
      const values: number[] = [];
      for (let i = 0; i < 5_000; i++) {
        if (i % 2 === 0) {
          // What a DAQ sends: -50…1 300 °C with 0 to 4 decimals.
          const decimals = Math.floor(rnd() * 5);
          values.push(Math.round((rnd() * 1350 - 50) * 10 ** decimals) / 10 ** decimals);
        } else {
          bits[0] = Math.floor(rnd() * 2 ** 32);
          if (Number.isFinite(asFloat[0]!)) values.push(asFloat[0]!);
        }
      }
      // Each value printed with 9 significant digits reads back as the same float4.
      const literal = `{${values.map((v) => (Number.isInteger(v) ? String(v) : v.toPrecision(9))).join(',')}}`;
      const { text, binary } = await bothForms(literal);
      expectSameNumbers(literal, text, binary);
    }
  });
});
