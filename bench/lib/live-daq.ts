import { daqTopic } from '@furnace/contracts';
import { createFrameGenerator } from '@furnace/simulator';
import { connectPublisher, insertResearch } from '@furnace/testing';
import type { BenchServices } from './services';

/** A live test's DAQ publishing into the system under measurement, until stopped. */
export interface LiveDaq {
  /** Frames published so far. */
  readonly streamed: number;
  /** Stops publishing and disconnects (once, however often called); resolves with the frames published. */
  stop(): Promise<number>;
}

/**
 * A running test of another furnace, as a lab has while staff read a finished one: a research started
 * now, and its DAQ publishing a frame of `channels` thermocouples every second over MQTT (QoS 1) from
 * before the first measured request until after the last (the ingest writes them, the API fans them out).
 */
export async function startLiveDaq(services: BenchServices, channels: number): Promise<LiveDaq> {
  const research = await insertResearch(services.db.url, { startAt: new Date() });
  const publisher = await connectPublisher(services.broker.url);
  const generate = createFrameGenerator({ channels, seed: 7 });
  let streamed = 0;
  const publish = () => void publisher.publish(daqTopic(research), JSON.stringify(generate(streamed++)), { qos: 1 });
  publish();
  const timer = setInterval(publish, 1000);
  let stopped: Promise<number> | undefined;
  return {
    get streamed() {
      return streamed;
    },
    stop() {
      clearInterval(timer);
      stopped ??= publisher.endAsync().then(() => streamed);
      return stopped;
    },
  };
}
