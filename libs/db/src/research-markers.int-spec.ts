import type { ThermoMarker } from '@furnace/contracts';
import type { DataSource } from 'typeorm';
import { createDataSource } from './data-source';
import { ThermoMarkerEntity } from './entities';
import { queryOn, researchMarkers } from './research.queries';
import { createTestDatabase, type TestDatabase } from './testing';

// The criteria read each thermocouple's EN 1634-1 insulation zone from researchMarkers: one zone per
// (thermo_id, type_name) pair even when several configs of the research mark it.
describe('researchMarkers', () => {
  let db: TestDatabase;
  let dataSource: DataSource;
  const researchId = '8d3b0f2a-5e3f-4a0b-9c75-3b4c5d6e7f80';

  beforeAll(async () => {
    db = await createTestDatabase();
    dataSource = createDataSource({ url: db.url, poolSize: 2, logging: ['error'] });
    await dataSource.initialize();
    await dataSource.query(
      `INSERT INTO research (id, name, start_at, end_at) VALUES ($1, 'Door', '2030-01-01T10:00:00Z', '2030-01-01T12:00:00Z')`,
      [researchId],
    );
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await db?.drop();
  });

  const marker = (
    thermo_id: number,
    type_name: ThermoMarker['type_name'],
    zone: ThermoMarker['zone'],
  ): ThermoMarker => ({
    thermo_id,
    name: `T${thermo_id}`,
    type_name,
    color_hex: '#1E88E5',
    item_x: 10 * thermo_id,
    item_y: 10,
    item_size: 8,
    label_x: 10 * thermo_id,
    label_y: 30,
    label_width: 40,
    label_height: 16,
    zone,
  });

  async function addConfig(createdAt: string, markers: ThermoMarker[]): Promise<void> {
    const [config] = (await dataSource.query(
      `INSERT INTO thermo_config (research_id, image_filename, image_mime, image_width, image_height, image_sha256, image_data, config_filename, config_data, created_at)
       VALUES ($1, 'door.png', 'image/png', 640, 480, '', '\\x00', 'door.txt', '\\x00', $2) RETURNING id`,
      [researchId, createdAt],
    )) as { id: string }[];
    await dataSource
      .getRepository(ThermoMarkerEntity)
      .insert(markers.map((m) => ThermoMarkerEntity.fromMarker(config!.id, m)));
  }

  it('gives each pair its zone, that of the newest config when two configs mark it differently', async () => {
    // Uploaded in this order, the newest last; listed by created_at, not by insertion.
    await addConfig('2030-01-01T09:00:00Z', [
      marker(1, 'Tmax', 'I1'),
      marker(2, 'Tmax ościeżnicy', 'I2'),
      marker(3, 'Tśr i Tmax', null),
    ]);
    await addConfig('2030-01-01T09:30:00Z', [
      marker(1, 'Tmax', 'I2'),
      marker(2, 'Tmax ościeżnicy', null),
      marker(4, 'T', null),
    ]);
    await addConfig('2030-01-01T08:00:00Z', [
      marker(1, 'Tmax', 'I1'),
      marker(3, 'Tśr i Tmax', 'I1'),
      marker(5, 'Tmax', 'I2'),
    ]);

    expect(await researchMarkers(queryOn(dataSource), researchId)).toEqual([
      { thermo_id: 1, type_name: 'Tmax', zone: 'I2' },
      { thermo_id: 2, type_name: 'Tmax ościeżnicy', zone: null },
      { thermo_id: 3, type_name: 'Tśr i Tmax', zone: null },
      { thermo_id: 4, type_name: 'T', zone: null },
      { thermo_id: 5, type_name: 'Tmax', zone: 'I2' },
    ]);
  });
});
