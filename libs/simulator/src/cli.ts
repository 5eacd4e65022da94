// `npm run simulate -- --research <id> [--profile door-ei2-60] [--rate 1] [--speed 10] [--mqtt URL]`:
// publishes realistic furnace frames for one research, as a lab's DAQ would; `--furnace <code>` instead of
// `--research`: to the furnace's topic, as a DAQ configured per furnace.
import { parseArgs } from 'node:util';
import {
  daqTopic,
  FURNACE_CODE_PATTERN,
  furnaceTopic,
  isResearchId,
  MAX_CHANNELS,
  redactUrl,
} from '@furnace/contracts';
import { formatTestTime } from './test-time';
import { startSimulator } from './publisher';
import { DEFAULT_SPECIMEN, SPECIMEN_PROFILES, specimenProfile } from './specimens';

const USAGE = `Usage: npm run simulate -- --research <research id> [options]
       npm run simulate -- --furnace <furnace code> [options]

  --research <id>     the research (UUID) whose topic furnace/<id>/data is published to
  --furnace <code>    or: the furnace whose topic lab/<code>/data is published to, each frame stamped (ts) when
                        sent; the ingest gives it to the test scheduled on the furnace at that time
  --profile <id>      the specimen (default ${DEFAULT_SPECIMEN}):
${SPECIMEN_PROFILES.map((p) => `                        ${p.id.padEnd(12)} ${p.label}, ${p.channels.length} thermocouples`).join('\n')}
  --channels <n>      thermocouple channels per frame (default the specimen's, at most ${MAX_CHANNELS})
  --pre-ignition <s>  seconds of frames before ignition sent first, for T0 (default 60; 0: none)
  --rate <hz>         DAQ samples per second of test time (default 1)
  --speed <x>         test seconds per real second (default 10; with --furnace 1)
  --start <s>         test time of the first frame, seconds (default 0)
  --duration <s>      stop after this much test time (default: run until Ctrl+C)
  --mqtt <url>        broker (default mqtt://127.0.0.1:1883; npm start's embedded broker listens on MQTT_PORT)
  --seed <n>          random seed (default 834)
  --silence-at <s>    the DAQ goes silent at this test time: no frame for --silence-for seconds (an alarm)
  --silence-for <s>   how long it stays silent, seconds of test time (default 60)
  --fault-at <s>[:TC] from this test time thermocouple TC (default 1) reads over-range, its fault flag (an alarm)

Signs in as MQTT_USERNAME / MQTT_PASSWORD from the environment, or as the --mqtt URL's user
(mqtt://user:password@host:port); \`npm run simulate\` finds \`npm start\`'s DAQ account by itself.
`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function number(name: string, value: string | undefined, fallback: number, check: (n: number) => boolean): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || !check(n)) fail(`--${name}: invalid value "${value}"`);
  return n;
}

function main() {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        research: { type: 'string' },
        furnace: { type: 'string' },
        profile: { type: 'string' },
        channels: { type: 'string' },
        'pre-ignition': { type: 'string' },
        rate: { type: 'string' },
        speed: { type: 'string' },
        start: { type: 'string' },
        duration: { type: 'string' },
        mqtt: { type: 'string' },
        seed: { type: 'string' },
        'silence-at': { type: 'string' },
        'silence-for': { type: 'string' },
        'fault-at': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    });
  } catch (error) {
    fail((error as Error).message);
  }
  const args = parsed.values;
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (args.research && args.furnace) fail('--research and --furnace: give one of them');
  if (!args.research && !args.furnace) fail('--research or --furnace is required');
  if (args.research && !isResearchId(args.research)) fail(`--research: "${args.research}" is not a research id (UUID)`);
  if (args.furnace && !FURNACE_CODE_PATTERN.test(args.furnace))
    fail(`--furnace: "${args.furnace}" is not a furnace code (1–16 lowercase letters, digits or hyphens)`);
  const topic = args.furnace ? furnaceTopic(args.furnace) : daqTopic(args.research!);
  const url = args.mqtt ?? 'mqtt://127.0.0.1:1883';
  const profile = specimenProfile(args.profile ?? DEFAULT_SPECIMEN);
  if (!profile)
    fail(`--profile: unknown specimen "${args.profile}"; one of ${SPECIMEN_PROFILES.map((p) => p.id).join(', ')}`);
  const channels = number(
    'channels',
    args.channels,
    profile.channels.length,
    (n) => Number.isInteger(n) && n >= 0 && n <= MAX_CHANNELS,
  );
  const preIgnition = number('pre-ignition', args['pre-ignition'], 60, (n) => n >= 0 && n <= 3600);
  const rate = number('rate', args.rate, 1, (n) => n > 0 && n <= 1000);
  // A furnace's DAQ stamps each frame when it sends it: it runs in real time unless told otherwise.
  const speed = number('speed', args.speed, args.furnace ? 1 : 10, (n) => n > 0 && n <= 10_000);
  const startTime = number('start', args.start, 0, (n) => n >= 0);
  const duration = args.duration === undefined ? undefined : number('duration', args.duration, 0, (n) => n > 0);
  const seed = number('seed', args.seed, 834, (n) => Number.isInteger(n));
  const silenceAt =
    args['silence-at'] === undefined ? undefined : number('silence-at', args['silence-at'], 0, (n) => n >= -3600);
  const silenceFor = number('silence-for', args['silence-for'], 60, (n) => n > 0);
  const [faultTime, faultTc] = (args['fault-at'] ?? '').split(':');
  const faultAt =
    args['fault-at'] === undefined
      ? undefined
      : {
          time: number('fault-at', faultTime, 0, (n) => n >= -3600),
          thermoId: number('fault-at', faultTc, 1, (n) => Number.isInteger(n) && n >= 1 && n <= MAX_CHANNELS),
        };

  let lastReport = 0;
  let lastError = '';
  let frames = 0;
  const simulator = startSimulator({
    url,
    // The URL's own user:password@ wins; mqtt.js reads it from the URL.
    ...(process.env.MQTT_USERNAME && !new URL(url).username
      ? { username: process.env.MQTT_USERNAME, password: process.env.MQTT_PASSWORD }
      : {}),
    researchId: args.research,
    furnaceCode: args.furnace,
    profile,
    channels,
    preIgnition,
    rate,
    speed,
    startTime,
    duration,
    seed,
    silence: silenceAt === undefined ? undefined : { at: silenceAt, for: silenceFor },
    faultAt,
    onFrame: (time) => {
      frames++;
      const now = Date.now();
      if (now - lastReport < 5000) return;
      lastReport = now;
      process.stdout.write(`  t = ${formatTestTime(time)}  (${frames} frames)\n`);
    },
    onError: (error) => {
      if (error.message === lastError) return;
      lastError = error.message;
      process.stderr.write(`MQTT: ${error.message}\n`);
    },
  });
  process.stdout.write(
    `Simulating ${profile.label} (the research's profile: standard ${profile.standard}${profile.insulation ? `, insulation ${profile.insulation}` : ''}, ` +
      `planned ${profile.planned_duration_min} min): ${channels} channels at ${rate} Hz × speed ${speed} (${rate * speed} frames/s) to ${redactUrl(url)}, topic ${topic}. Ctrl+C stops.\n`,
  );
  const stop = () => void simulator.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  void simulator.done
    .then(() => simulator.stop())
    .then(() => {
      process.stdout.write(`Done: ${simulator.published} frames.\n`);
      process.exit(0);
    });
}

main();
