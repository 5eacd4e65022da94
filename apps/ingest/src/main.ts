// The ingest as its own process (production: one or more next to the API instances), started from
// libs/ingest. `npm start` runs it inside apps/standalone instead. Needs DATABASE_URL, REDIS_URL and MQTT_URL; serves
// /health and /metrics on PORT. The API applies the migrations: until the tables exist the ingest
// holds frames in its outage buffer and retries.
import { Logger } from '@nestjs/common';
import { collectDefaultMetrics, register } from 'prom-client';
import { createBus } from '@furnace/bus';
import { ConfigError, loadIngestConfig } from '@furnace/config';
import { startHttpEndpoint, startIngest } from '@furnace/ingest';
import { createLogger } from '@furnace/logger';

async function main() {
  const config = loadIngestConfig();
  Logger.overrideLogger(createLogger(config, 'ingest'));
  const log = new Logger('Ingest');
  collectDefaultMetrics({ register });
  const bus = await createBus(config.redisUrl, (e) => log.warn(`Bus: ${e.message}`));
  const ingest = startIngest(config, { databaseUrl: config.databaseUrl, bus });
  const server = await startHttpEndpoint(
    register,
    () => ({
      broker: ingest.source.connected,
      database: ingest.service.databaseReachable,
      buffered: ingest.service.buffered,
    }),
    config.port,
    config.host,
  );
  log.log(`Ingest started; /health and /metrics on ${config.host}:${config.port}`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.log(`${signal} received, writing what is held and stopping`);
    server.close();
    const lost = await ingest.stop();
    await bus.close();
    process.exit(lost > 0 ? 1 : 0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((e) => {
  console.error(e instanceof ConfigError ? e.message : e);
  process.exit(1);
});
