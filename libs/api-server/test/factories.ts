import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestApi } from './harness';
import { auth } from './harness';
import { researchBody } from '@furnace/testing';

export const SPECIMEN_PNG = readFileSync(join(__dirname, 'fixtures', 'specimen.png')); // 640×480
export const SPECIMEN_JPEG = readFileSync(join(__dirname, 'fixtures', 'specimen.jpg')); // 640×480

/** A stored frame, written as the ingest writes it (nothing is published on the bus). */
export async function insertFrame(
  api: TestApi,
  researchId: string,
  time: number,
  fields: { pk?: number; thermocouples?: (number | null)[]; faults?: number[]; daqTs?: string; radiance?: number } = {},
) {
  await api.dataSource.query(
    `INSERT INTO reading (research_id, "time", ts, daq_ts, pk, thermocouples, faults, received_at, radiance)
     SELECT $1, $2, r.start_at + $2 * INTERVAL '1 second', $3, $4, $5, $6, now(), $7 FROM research r WHERE r.id = $1`,
    [
      researchId,
      time,
      fields.daqTs ?? null,
      fields.pk ?? null,
      fields.thermocouples ?? null,
      fields.faults ?? null,
      fields.radiance ?? null,
    ],
  );
}

export async function createResearch(
  api: TestApi,
  token: string,
  overrides: Parameters<typeof researchBody>[0] = {},
): Promise<{ id: string; name: string }> {
  const res = await api.http.post('/api/v1/research/').set(auth(token)).send(researchBody(overrides));
  if (res.status !== 200) throw new Error(`research not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function addClient(
  api: TestApi,
  token: string,
  researchId: string,
  email: string,
): Promise<{ id: string }> {
  const res = await api.http.post('/api/v1/research/emails').set(auth(token)).send({ research_id: researchId, email });
  if (res.status !== 200) throw new Error(`e-mail not added: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A client's viewer token, exchanged for their code through the real route. */
export async function viewerToken(api: TestApi, researchId: string, code: string): Promise<string> {
  const res = await api.http.post(`/api/v1/research/${researchId}/viewer-token`).send({ code });
  if (res.status !== 200) throw new Error(`viewer token refused: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.access_token;
}

/** A thermocouple config file's text: header and one line per row. */
export function configText(rows: string[], header = true): string {
  return (
    [
      ...(header
        ? ['thermo_id;name;type_name;color_hex;item_x;item_y;item_size;label_x;label_y;label_width;label_height']
        : []),
      ...rows,
    ].join('\r\n') + '\r\n'
  );
}

export const VALID_CONFIG = configText([
  '1;T1;Tśr i Tmax;#E53935;100;100;14;120;80;64;24',
  '2;T2;Tśr i Tmax;#E53935;300;100;14;320;80;64;24',
  '3;T3;Tmax ościeżnicy;#1E88E5;500;300;14;520;280;64;24',
]);

export function uploadConfig(
  api: TestApi,
  token: string,
  researchId: string,
  image = SPECIMEN_PNG,
  config: string | Buffer = VALID_CONFIG,
  names = { image: 'specimen.png', config: 'config.txt' },
) {
  return api.http
    .post('/api/v1/research/thermo')
    .set(auth(token))
    .field('research_id', researchId)
    .attach('image_file', image, names.image)
    .attach('config_file', Buffer.isBuffer(config) ? config : Buffer.from(config, 'utf8'), names.config);
}
