import type { APIRequestContext } from '@playwright/test';
import { createRequire } from 'node:module';
import { ADMIN, API, apiToken, expect } from './fixtures';
import { makePng } from './png';

/**
 * What the API's tests and these share (libs/testing). Required, not imported: the e2e files are ES
 * modules and the library is CommonJS TypeScript, whose names Node cannot list for an import.
 */
const shared = createRequire(import.meta.url)(
  '@furnace/testing/research-body',
) as typeof import('@furnace/testing/research-body');
export const { DOOR_PROFILE } = shared;

/** A thermocouple config in the format of the README's "Thermocouple config files", for a 640×400 photo. */
const CONFIG_TEXT = [
  '# Piec 3, drzwi EI60: rozmieszczenie termopar',
  'thermo_id;name;type_name;color_hex;item_x;item_y;item_size;label_x;label_y;label_width;label_height',
  '1;T1;Tśr i Tmax;#E53935;100;100;14;120;70;64;24',
  '2;T2;Tmax;#1E88E5;300;150;14;320;120;64;24',
  '3;T3;TDin;#43A047;450;250;14;470;220;64;24',
  '4;T4;T;#FB8C00;200;300;14;220;330;64;24',
  '',
].join('\n');

export const BAD_CONFIG_TEXT = [
  'thermo_id;name;type_name;color_hex;item_x;item_y;item_size;label_x;label_y;label_width;label_height',
  '1;T1;Tmax;#E5393;100;100;14;120;70;64;24',
  '1;T2;Nieznany;#1E88E5;300;150;14;320;120;64;24',
  '',
].join('\n');

export const photo = (name = 'piec.png') => ({ name, mimeType: 'image/png', buffer: makePng(640, 400) });
export const configFile = (name = 'termopary.txt', text = CONFIG_TEXT) => ({
  name,
  mimeType: 'text/plain',
  buffer: Buffer.from(text, 'utf8'),
});

export interface ApiResearch {
  id: string;
  name: string;
  start_at: string;
  end_at: string;
}

/** Creates a research through the API (test data for the list and delete tests). */
export async function createResearchByApi(
  request: APIRequestContext,
  name: string,
  startAt: Date,
  hours = 3,
): Promise<ApiResearch> {
  const token = await apiToken(request, ADMIN.email, ADMIN.password);
  const response = await request.post(`${API}/research`, {
    headers: { Authorization: `Bearer ${token}` },
    data: shared.researchBody({
      name,
      start_at: startAt.toISOString(),
      end_at: new Date(startAt.getTime() + hours * 3600_000).toISOString(),
    }),
  });
  expect(response.ok(), `create research: ${response.status()} ${await response.text()}`).toBeTruthy();
  return (await response.json()) as ApiResearch;
}
