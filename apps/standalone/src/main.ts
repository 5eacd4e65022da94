// `npm start`: the whole system in one process. Whatever is not configured runs embedded:
// PGlite for PostgreSQL, an in-process bus for Redis, aedes for the MQTT broker.
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigError, describeConfig, embeddedSecretDir, loadStandaloneConfig } from '@furnace/config';
import { limitHeapGrowth } from '@furnace/api-server';
import { ensureSecretFile } from './secret';
import { startSystem } from './system';

async function main() {
  limitHeapGrowth();
  // Without SECRET_KEY and DATABASE_URL, the secret kept in the data directory (created on the first start).
  const secretDir = embeddedSecretDir(process.env);
  const config = loadStandaloneConfig(
    secretDir ? { ...process.env, SECRET_KEY: ensureSecretFile(secretDir) } : process.env,
  );
  const system = await startSystem(config);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    Logger.log(`${signal} received, stopping`, 'Standalone');
    await system.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  const lines = [
    '',
    `  Furnace Live is running on ${config.frontendHost}`,
    `  API docs:    ${config.frontendHost}/api/v1/docs`,
    `  Sign in as:  ${config.firstSuperuser}` +
      (config.firstSuperuserPasswordIsDefault ? ' / changethis (you choose a new password at the first sign-in)' : ''),
    ...system.banner,
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
  Logger.log(describeConfig(config), 'Config');
}

main().catch((e) => {
  if (e instanceof ConfigError) console.error(e.message);
  else console.error(e);
  process.exit(1);
});
