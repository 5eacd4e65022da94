import mqtt, { type MqttClient } from 'mqtt';
import { daqTopic, furnaceTopic } from '@furnace/contracts';
import { createFrameGenerator } from './frames';
import type { SpecimenProfile } from './specimens';

export interface SimulatorOptions {
  /** Broker URL, e.g. mqtt://127.0.0.1:1883. */
  url: string;
  /** The research whose topic furnace/{id}/data is published to (unless `furnaceCode` is given). */
  researchId?: string;
  /**
   * A furnace's code: publishes to its topic lab/{code}/data instead, as a DAQ configured per furnace, each frame's `ts`
   * the clock when it is sent (the ingest routes it by that time to the test scheduled on the furnace).
   */
  furnaceCode?: string;
  /** The specimen simulated (default the EI2 60 door). */
  profile?: SpecimenProfile;
  channels?: number;
  /** DAQ sampling rate: frames per second of test time. */
  rate?: number;
  /** Test seconds per real second (10: an hour of test in six minutes). */
  speed?: number;
  /** Test time of the first frame, seconds (to continue a test). */
  startTime?: number;
  /**
   * Seconds of frames before ignition (negative time, the furnace cold) published first, at the
   * same pace, when the test starts at 0, as a DAQ scans before the burners are lit: T0 is taken from them.
   */
  preIgnition?: number;
  /** Stop after this many seconds of test time; runs until stop() when unset. */
  duration?: number;
  seed?: number;
  /** The DAQ goes silent: no frame of test time [at, at + for) s is published (the test's clock goes on). */
  silence?: { at: number; for: number };
  /** From this test time (s) on, a thermocouple (default 1) reads over-range: its fault flag. */
  faultAt?: { time: number; thermoId: number };
  clientId?: string;
  username?: string;
  password?: string;
  /** Called after each frame is handed to the MQTT client. */
  onFrame?(time: number): void;
  onError?(error: Error): void;
}

export interface RunningSimulator {
  /** Resolves when `duration` is reached and every frame was acknowledged (never without a duration). */
  done: Promise<void>;
  /** Frames published so far. */
  readonly published: number;
  stop(): Promise<void>;
}

/**
 * Publishes simulated DAQ frames exactly as the MQTT contract says (topic furnace/{id}/data or lab/{code}/data, QoS 1,
 * JSON payload), at `rate × speed` frames per real second. Frames are scheduled against the clock,
 * not chained timers, so the rate does not drift; while the broker is away MQTT.js queues them
 * and sends them on reconnect.
 */
export function startSimulator(options: SimulatorOptions): RunningSimulator {
  const rate = options.rate ?? 1;
  const speed = options.speed ?? 1;
  if (!(rate > 0) || !(speed > 0)) throw new RangeError('rate and speed must be positive');
  const furnace = options.furnaceCode;
  if (furnace === undefined && options.researchId === undefined)
    throw new RangeError('researchId or furnaceCode is required');
  const topic = furnace !== undefined ? furnaceTopic(furnace) : daqTopic(options.researchId!);
  const startTime = options.startTime ?? 0;
  const step = 1 / rate;
  const preIgnition = options.preIgnition ?? 0;
  // The first frame's time: before ignition when the test starts from its beginning.
  const first = startTime === 0 && preIgnition > 0 ? -Math.floor(preIgnition * rate) * step : startTime;
  const generate = createFrameGenerator({
    profile: options.profile,
    channels: options.channels,
    seed: options.seed,
    // A furnace's DAQ stamps each frame when it sends it (below), whatever the simulation's speed.
    faultAt: options.faultAt,
    startedAt: furnace === undefined ? new Date(Date.now() - first * 1000) : undefined,
  });
  const client: MqttClient = mqtt.connect(options.url, {
    clientId: options.clientId ?? `furnace-simulator-${Math.random().toString(16).slice(2, 10)}`,
    username: options.username,
    password: options.password,
    protocolVersion: 4,
    reconnectPeriod: 1000,
  });
  client.on('error', (error) => options.onError?.(error));

  const startedAt = performance.now();
  let index = 0;
  let published = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  const pendingAcks = new Set<Promise<unknown>>();

  const send = (time: number) => {
    const ack = client
      .publishAsync(
        topic,
        JSON.stringify(furnace === undefined ? generate(time) : { ...generate(time), ts: new Date().toISOString() }),
        { qos: 1 },
      )
      .catch((error: Error) => options.onError?.(error));
    pendingAcks.add(ack);
    void ack.finally(() => pendingAcks.delete(ack));
    published++;
    options.onFrame?.(time);
  };

  const tick = () => {
    timer = null;
    if (stopped) return;
    // Every frame whose moment has come (several per tick at high rates).
    const elapsedTest = ((performance.now() - startedAt) / 1000) * speed;
    while (!stopped && index * step <= elapsedTest) {
      const time = first + index * step;
      if (options.duration !== undefined && time - startTime > options.duration) {
        stopped = true;
        void Promise.all(pendingAcks).then(() => resolveDone());
        return;
      }
      const silence = options.silence;
      if (!silence || time < silence.at || time >= silence.at + silence.for) send(time);
      index++;
    }
    const nextDueMs = (index * step * 1000) / speed - (performance.now() - startedAt);
    timer = setTimeout(tick, Math.max(1, Math.min(nextDueMs, 1000)));
  };
  // The first tick after the caller holds the handle: callbacks may use it.
  timer = setTimeout(tick, 0);

  return {
    done,
    get published() {
      return published;
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await client.endAsync(false).catch(() => undefined);
      resolveDone();
    },
  };
}
