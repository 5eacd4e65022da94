// The API as its own process (production: several behind a proxy). `npm start` runs apps/standalone instead.
import 'reflect-metadata';
import { loadApiConfig } from '@furnace/config';
import { createBus } from '@furnace/bus';
import { openDatabase } from '@furnace/db';
import { Logger } from '@nestjs/common';
import { createApiApp, limitHeapGrowth, listenApi } from '@furnace/api-server';
import { createLogger } from '@furnace/logger';

async function main() {
  limitHeapGrowth();
  const config = loadApiConfig();
  const logger = createLogger(config);
  Logger.overrideLogger(logger);
  const dataSource = await openDatabase({ url: config.databaseUrl, applicationName: 'furnace-api' });
  const bus = await createBus(config.redisUrl, (e) => Logger.warn(`Bus: ${e.message}`, 'Bus'));
  const app = await createApiApp({ config, dataSource, bus }, { logger });
  app.enableShutdownHooks();
  await listenApi(app, config.port, config.host);
  Logger.log(`API listening on ${config.host}:${config.port}`, 'Bootstrap');
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
