import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { DataSource } from 'typeorm';
import { ConfigError, type StandaloneConfig } from '@furnace/config';
import { type Bus, createBus } from '@furnace/bus';
import { type EmbeddedDatabase, openDatabase, startEmbeddedDatabase } from '@furnace/db';
import { createApiApp, listenApi } from '@furnace/api-server';
import { createLogger } from '@furnace/logger';
import { BrokerPortInUseError, type EmbeddedBroker, startEmbeddedBroker } from '@furnace/broker';
import { startIngest } from '@furnace/ingest';
import { startDemo } from './demo';

export interface RunningSystem {
  app: NestExpressApplication;
  dataSource: DataSource;
  bus: Bus;
  /** Extra lines for the start-up banner. */
  banner: string[];
  stop(): Promise<void>;
}

/** Starts every part of the system this configuration asks for, in dependency order. */
export async function startSystem(config: StandaloneConfig): Promise<RunningSystem> {
  const logger = createLogger(config);
  Logger.overrideLogger(logger);
  const log = new Logger('Standalone');
  const started = Date.now();
  const stops: (() => Promise<unknown>)[] = [];
  const banner: string[] = [];
  try {
    let databaseUrl = config.databaseUrl;
    let embedded: EmbeddedDatabase | undefined;
    if (!databaseUrl) {
      embedded = await startEmbeddedDatabase({ dataDir: config.dataDir });
      stops.push(() => embedded!.stop());
      databaseUrl = embedded.url;
      log.log(
        `Embedded PostgreSQL (PGlite) on the Unix socket ${embedded.socketPath} (this user only), data in ${config.dataDir}`,
      );
    }
    const dataSource = await openDatabase({
      url: databaseUrl,
      applicationName: 'furnace-standalone',
      poolSize: embedded ? 4 : 10,
    });
    stops.push(() => dataSource.destroy());
    const bus = await createBus(config.redisUrl, (e) => log.warn(`Bus: ${e.message}`));
    stops.push(() => bus.close());

    // The broker: the embedded aedes unless MQTT_URL names one. A taken port stops start-up with
    // the fix in the message (on the development machines Mosquitto holds 1883): quietly moving to
    // another port would leave a DAQ configured for MQTT_PORT publishing into nothing.
    let broker: EmbeddedBroker | undefined;
    const daq =
      config.mqttUsername && config.mqttPassword
        ? { username: config.mqttUsername, password: config.mqttPassword }
        : undefined;
    if (config.embedded.broker) {
      try {
        broker = await startEmbeddedBroker({
          port: config.mqttPort,
          host: config.mqttHost,
          access: {
            ingestClientId: config.mqttClientId,
            daq,
          },
        });
      } catch (e) {
        if (e instanceof BrokerPortInUseError) throw new ConfigError([e.message]);
        throw e;
      }
      stops.push(() => broker!.stop());
      log.log(
        `Embedded MQTT broker (aedes) on ${config.mqttHost}:${broker.port}${config.mqttUsername ? ', DAQs sign in as MQTT_USERNAME' : ''}`,
      );
    }
    const ingest = startIngest(config, { databaseUrl, bus, mqttUrl: broker?.url, mqttCredentials: broker?.ingest });
    // Stopped before the broker and the database: it writes what it holds first.
    stops.push(() => ingest.stop());
    const subscribed = await Promise.race([
      ingest.ready.then(() => true),
      new Promise<false>((r) => setTimeout(() => r(false), 10_000).unref()),
    ]);
    if (!subscribed) log.warn(`The MQTT broker at ${config.mqttUrl} does not answer yet; the ingest keeps trying`);

    const app = await createApiApp({ config, dataSource, bus }, { logger });
    stops.push(() => app.close());
    await listenApi(app, config.port, config.host);

    const brokerUrl = broker?.url ?? config.mqttUrl!;
    const brokerPort = broker?.port ?? (Number(new URL(brokerUrl).port) || 1883);
    const brokerHost = new URL(brokerUrl).hostname;
    // The demo publishes to the embedded broker only: never simulated frames into a lab's real broker.
    if (config.demo && broker) {
      const demo = await startDemo({
        dataSource,
        brokerUrl: broker.url,
        credentials: daq,
        dataDir: config.dataDir,
        log: (m) => log.log(m),
      });
      if (demo) {
        stops.push(() => demo.stop());
        banner.push(
          `  Demo test:   ${config.frontendHost}/research/${demo.researchId}/view (signed in): a simulated furnace test, live now`,
        );
      }
    }
    banner.push(
      `  MQTT broker: ${broker ? `embedded, port ${broker.port}` : `${brokerHost}:${brokerPort}`}; a DAQ publishes to furnace/<research id>/data, QoS 1`,
      `  Publish:     mosquitto_pub -h ${brokerHost} -p ${brokerPort}${daq ? ' -u "$MQTT_USERNAME" -P "$MQTT_PASSWORD"' : ''} -q 1 -t furnace/<research id>/data -m '{"time": 12.5, "radiance": 1.8, "pressure": 16.2, "pk": 812.4, "thermocouples_out": [21.4, 22.0]}'`,
      `  Simulate:    npm run simulate -- --research <research id> --mqtt mqtt://${daq ? '<MQTT_USERNAME>:<MQTT_PASSWORD>@' : ''}${brokerHost}:${brokerPort}`,
    );
    log.log(`Started in ${Date.now() - started} ms`);
    return {
      app,
      dataSource,
      bus,
      banner,
      async stop() {
        for (const s of stops.reverse()) await s().catch((e: Error) => log.warn(`While stopping: ${e.message}`));
      },
    };
  } catch (e) {
    for (const s of stops.reverse()) await s().catch(() => undefined);
    throw e;
  }
}
