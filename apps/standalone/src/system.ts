import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { DataSource } from 'typeorm';
import { ConfigError, type StandaloneConfig } from '@furnace/config';
import { type Bus, createBus } from '@furnace/bus';
import {
  DAQ_REVOCATIONS_CHANNEL,
  type EmbeddedDatabase,
  findDaqCredential,
  openDatabase,
  queryOn,
  startEmbeddedDatabase,
  verifyDaqPassword,
} from '@furnace/db';
import { createApiApp, listenApi } from '@furnace/api-server';
import { createLogger } from '@furnace/logger';
import { BrokerPortInUseError, type EmbeddedBroker, startEmbeddedBroker } from '@furnace/broker';
import { startIngest } from '@furnace/ingest';
import { installationDaqAccount } from './daq-account';
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
    // The installation's DAQ account (docs/behaviour.md, "DAQ credentials"): MQTT_USERNAME/MQTT_PASSWORD, or
    // one kept in the data directory. With MQTT_URL those variables are the ingest's own credentials instead.
    const daq = config.embedded.broker
      ? installationDaqAccount(config.dataDir, { username: config.mqttUsername, password: config.mqttPassword })
      : undefined;
    if (config.embedded.broker) {
      const run = queryOn(dataSource);
      try {
        broker = await startEmbeddedBroker({
          port: config.mqttPort,
          host: config.mqttHost,
          access: {
            ingestClientId: config.mqttClientId,
            daq,
            furnaceDaq: async (username, password) => {
              const credential = await findDaqCredential(run, username);
              return credential && (await verifyDaqPassword(password, credential.passwordHash))
                ? { furnaceCode: credential.furnaceCode }
                : null;
            },
          },
        });
      } catch (e) {
        if (e instanceof BrokerPortInUseError) throw new ConfigError([e.message]);
        throw e;
      }
      stops.push(() => broker!.stop());
      // A rotated credential (or a renamed or deleted furnace) ends its DAQ's open connections.
      const unsubscribe = await bus.subscribe(DAQ_REVOCATIONS_CHANNEL, (username) => broker?.revokeDaq(username));
      stops.push(unsubscribe);
      log.log(
        `Embedded MQTT broker (aedes) on ${config.mqttHost}:${broker.port}; DAQs sign in with their furnace's credential or as ${daq!.username}${daq!.file ? ` (password in ${daq!.file})` : ' (MQTT_USERNAME)'}`,
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
    // The installation account's password is shown by where it is kept, never itself.
    const signIn = daq?.file
      ? `-u ${daq.username} -P "$(cat '${daq.file}')"`
      : '-u "$MQTT_USERNAME" -P "$MQTT_PASSWORD"';
    banner.push(
      `  MQTT broker: ${broker ? `embedded, port ${broker.port}` : `${brokerHost}:${brokerPort}`}; a DAQ publishes to furnace/<research id>/data, QoS 1`,
      `  Publish:     mosquitto_pub -h ${brokerHost} -p ${brokerPort} ${signIn} -q 1 -t furnace/<research id>/data -m '{"time": 12.5, "radiance": 1.8, "pressure": 16.2, "pk": 812.4, "thermocouples_out": [21.4, 22.0]}'`,
      `               (a furnace's DAQ: -u daq-<code> -P <its credential>, topic lab/<code>/data)`,
      `  Simulate:    npm run simulate -- --research <research id> --mqtt mqtt://${brokerHost}:${brokerPort}${daq?.file ? '' : ' (with MQTT_USERNAME, MQTT_PASSWORD set)'}`,
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
