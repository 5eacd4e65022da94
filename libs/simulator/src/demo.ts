import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { formatThermoConfig, type MeasurementTypeName, type ThermoMarker } from '@furnace/contracts';
import { ReadingEntity, REBUILD_ROLLUPS_SQL, ResearchEntity, ThermoConfigEntity, ThermoMarkerEntity } from '@furnace/db';
import { demoSpecimenPng } from './demo-image';
import { type RunningSimulator, startSimulator } from './publisher';
import { DEFAULT_SPECIMEN, specimenProfile } from './specimens';

/** The demo research's fixed id, so every start finds the same one. */
export const DEMO_RESEARCH_ID = 'f1a3e000-0834-4000-8000-00000000de30';
const DEMO_HOURS = 3;
/** Seconds the simulated DAQ scans before ignition. */
const PRE_IGNITION_S = 60;
/** The EI2 60 door: its 24 thermocouples are the demo config's markers. */
const SPECIMEN = specimenProfile(DEFAULT_SPECIMEN)!;
/** The demo research's test profile, the specimen's. */
const DEMO_PROFILE = {
  standard: SPECIMEN.standard,
  insulation: SPECIMEN.insulation,
  heatingCurve: 'iso834',
  criteriaBasis: 'rise',
  plannedDurationMin: SPECIMEN.planned_duration_min,
  pressureTargetPa: 17.5,
  pressureTolerancePa: 3,
} satisfies Partial<ResearchEntity>;

export interface RunningDemo {
  researchId: string;
  stop(): Promise<void>;
}

/**
 * The demo of `npm start`: a research created at first start (with a specimen photo and 24
 * thermocouples on it) and fed by the simulator through the embedded broker, so a newcomer
 * watches a live test within a minute. The simulated test runs in real time from the research's
 * start; once it has ended, the next start runs it again from zero. A demo research that staff
 * deleted stays deleted (a marker file in the data directory remembers it was made).
 */
export async function startDemo(options: {
  dataSource: DataSource;
  brokerUrl: string;
  /** The DAQ credentials the broker asks for (MQTT_USERNAME/MQTT_PASSWORD), when set. */
  credentials?: { username: string; password: string };
  dataDir: string;
  log: (message: string) => void;
}): Promise<RunningDemo | null> {
  const { dataSource } = options;
  const marker = join(options.dataDir, 'demo-research');
  const researches = dataSource.getRepository(ResearchEntity);
  const research = await researches.findOneBy({ id: DEMO_RESEARCH_ID });
  const now = new Date();
  const end = new Date(now.getTime() + DEMO_HOURS * 3600_000);
  if (!research) {
    if (existsSync(marker)) {
      options.log(`The demo research was deleted; delete ${marker} to have it created again`);
      return null;
    }
    await createDemoResearch(dataSource, now, end);
    mkdirSync(options.dataDir, { recursive: true });
    writeFileSync(marker, `${DEMO_RESEARCH_ID}\n`);
  } else if (research.endAt.getTime() <= now.getTime()) {
    // Ended: run it again from zero.
    await dataSource.getRepository(ReadingEntity).delete({ researchId: DEMO_RESEARCH_ID });
    for (const sql of REBUILD_ROLLUPS_SQL) await dataSource.query(sql, [DEMO_RESEARCH_ID]);
    await researches.update({ id: DEMO_RESEARCH_ID }, { startAt: now, endAt: end, ...DEMO_PROFILE });
  }
  const startAt = (await researches.findOneByOrFail({ id: DEMO_RESEARCH_ID })).startAt;
  const simulator: RunningSimulator = startSimulator({
    url: options.brokerUrl,
    username: options.credentials?.username,
    password: options.credentials?.password,
    researchId: DEMO_RESEARCH_ID,
    profile: SPECIMEN,
    rate: 1,
    speed: 1,
    // The furnace is lit a minute after the research starts: the minute before gives T0.
    startTime: Math.round((now.getTime() - startAt.getTime()) / 1000) - PRE_IGNITION_S,
    clientId: `furnace-demo-daq-${randomUUID().slice(0, 8)}`,
  });
  return { researchId: DEMO_RESEARCH_ID, stop: () => simulator.stop() };
}

async function createDemoResearch(dataSource: DataSource, start: Date, end: Date): Promise<void> {
  await dataSource.getRepository(ResearchEntity).insert({
    id: DEMO_RESEARCH_ID,
    name: 'Demo: drzwi EI 60, symulacja ISO 834',
    startAt: start,
    endAt: end,
    isRadiance: true,
    isFurnance: true,
    isPressure: true,
    ...DEMO_PROFILE,
  });
  const image = demoSpecimenPng();
  const markers = demoMarkers();
  const configId = randomUUID();
  await dataSource.getRepository(ThermoConfigEntity).insert({
    id: configId,
    researchId: DEMO_RESEARCH_ID,
    imageFilename: 'demo-specimen.png',
    imageMime: 'image/png',
    imageWidth: 800,
    imageHeight: 500,
    imageSha256: createHash('sha256').update(image).digest('hex'),
    imageData: image,
    configFilename: 'demo-config.txt',
    configData: Buffer.from(demoConfigText(), 'utf8'),
  });
  await dataSource.getRepository(ThermoMarkerEntity).insert(
    markers.map((m) => ThermoMarkerEntity.fromMarker(configId, m)),
  );
}

/** The demo's thermocouple config file, in the format staff upload. */
export function demoConfigText(): string {
  return formatThermoConfig(demoMarkers());
}

/** 24 thermocouples: a 4 × 4 grid on the door leaf (mean and max), 4 on the leaf's edge, 4 on the frame (the specimen's layout). */
export function demoMarkers(): ThermoMarker[] {
  const markers: ThermoMarker[] = [];
  const add = (x: number, y: number, type: MeasurementTypeName, color: string) => {
    const id = markers.length + 1;
    markers.push({ thermo_id: id, name: `T${id}`, type_name: type, color_hex: color, item_x: x, item_y: y, item_size: 12, label_x: x + 14, label_y: y - 26, label_width: 58, label_height: 22, zone: null });
  };
  for (let row = 0; row < 4; row++) for (let col = 0; col < 4; col++) add(215 + col * 105, 110 + row * 95, 'Tśr i Tmax', '#E53935');
  for (const y of [100, 200, 300, 400]) add(600, y, 'Tmax', '#1E88E5');
  for (const [x, y] of [[158, 150], [158, 350], [630, 150], [630, 350]] as const) add(x, y, 'Tmax ościeżnicy', '#43A047');
  return markers;
}
