import { daqTopic } from '@furnace/contracts';
import { createFrameGenerator } from '@furnace/simulator';
import { connectPublisher, insertResearch } from '@furnace/testing';
import type { BenchServices } from './services';

/** A live test's DAQ publishing into the system under measurement, until stopped. */
export interface LiveDaq {
  /** The running test it publishes into. */
  readonly researchId: string;
  /** Frames published so far. */
  readonly streamed: number;
  /** When each frame was published (performance.now()), by its time: what a watcher's latency is measured from. */
  readonly published: ReadonlyMap<number, number>;
  /** Stops publishing and disconnects (once, however often called); resolves with the frames published. */
  stop(): Promise<number>;
}

/**
 * A running test of another furnace, as a lab has while staff read a finished one: a research started
 * now, and its DAQ publishing a frame of `channels` thermocouples every second over MQTT (QoS 1) from
 * before the first measured request until after the last (the ingest writes them, the API fans them out).
 * `researchId`: publish into that research instead, its frames' times from `from` on (a test running for a while).
 */
export async function startLiveDaq(
  services: BenchServices,
  channels: number,
  options: { researchId?: string; from?: number } = {},
): Promise<LiveDaq> {
  const research = options.researchId ?? (await insertResearch(services.db.url, { startAt: new Date() }));
  const publisher = await connectPublisher(services.broker.url);
  const generate = createFrameGenerator({ channels, seed: 7 });
  const published = new Map<number, number>();
  const from = options.from ?? 0;
  let streamed = 0;
  const publish = () => {
    const frame = generate(from + streamed++);
    published.set(frame.time, performance.now());
    void publisher.publish(daqTopic(research), JSON.stringify(frame), { qos: 1 });
  };
  publish();
  const timer = setInterval(publish, 1000);
  let stopped: Promise<number> | undefined;
  return {
    researchId: research,
    get streamed() {
      return streamed;
    },
    published,
    stop() {
      clearInterval(timer);
      stopped ??= publisher.endAsync().then(() => streamed);
      return stopped;
    },
  };
}
