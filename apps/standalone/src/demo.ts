import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import {
  FurnaceEntity,
  ReadingEntity,
  REBUILD_ROLLUPS_SQL,
  ResearchEntity,
  ThermoConfigEntity,
  ThermoMarkerEntity,
} from '@furnace/db';
import {
  DEFAULT_SPECIMEN,
  demoConfigText,
  demoMarkers,
  demoSpecimenPng,
  type RunningSimulator,
  specimenProfile,
  startSimulator,
} from '@furnace/simulator';

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

interface RunningDemo {
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
    await createDemoResearch(dataSource, now, end, await ensureDemoFurnaces(dataSource));
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

/**
 * The demo lab's two furnaces (docs/behaviour.md §15), made with the demo research when neither code is taken: the
 * horizontal one runs the demo test, the vertical one is idle, so the overview (/lab) shows both kinds of tile.
 * Returns the id of the furnace the demo test runs on (null when staff already had furnaces of those codes).
 */
async function ensureDemoFurnaces(dataSource: DataSource): Promise<string | null> {
  const furnaces = dataSource.getRepository(FurnaceEntity);
  if ((await furnaces.countBy([{ code: 'demo-h' }, { code: 'demo-v' }])) > 0) return null;
  const common = { scanPeriodS: 1, standard: SPECIMEN.standard, heatingCurve: 'iso834' };
  const [horizontal] = await furnaces.save([
    furnaces.create({
      ...common,
      name: 'Demo: piec poziomy',
      code: 'demo-h',
      pressureTargetPa: 17.5,
      pressureTolerancePa: 3,
    }),
    furnaces.create({
      ...common,
      name: 'Demo: piec pionowy',
      code: 'demo-v',
      pressureTargetPa: 20,
      pressureTolerancePa: 3,
    }),
  ]);
  return horizontal!.id;
}

async function createDemoResearch(
  dataSource: DataSource,
  start: Date,
  end: Date,
  furnaceId: string | null,
): Promise<void> {
  await dataSource.getRepository(ResearchEntity).insert({
    id: DEMO_RESEARCH_ID,
    furnaceId,
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
  await dataSource
    .getRepository(ThermoMarkerEntity)
    .insert(markers.map((m) => ThermoMarkerEntity.fromMarker(configId, m)));
}
