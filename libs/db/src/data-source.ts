import 'reflect-metadata';
import { DataSource, type LoggerOptions } from 'typeorm';
import { entities } from './entities';
import { migrations } from './migrations';
import { SnakeNamingStrategy } from './naming-strategy';

export interface DataSourceOptions {
  url: string;
  /** Connections in this process's pool. */
  poolSize?: number;
  logging?: LoggerOptions;
  applicationName?: string;
}

/** The one way the system opens the database: PostgreSQL, or the embedded PGlite over the wire protocol. */
export function createDataSource(options: DataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    entities,
    migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    // Generated uuid keys default to gen_random_uuid(), as the migrations write them: it is built into
    // PostgreSQL 13+ (and PGlite), so there is no extension to install at connect.
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    // Failed queries are not logged here: TypeORM would print their parameters (e-mail addresses,
    // password hashes). The caller handles the error; unexpected ones reach the API's error log.
    logging: options.logging ?? ['warn', 'migration'],
    applicationName: options.applicationName ?? 'furnace-live',
    extra: { max: options.poolSize ?? 10, connectionTimeoutMillis: 10_000 },
  });
}

const MIGRATION_LOCK = 7_272_001;

/**
 * Opens the data source and applies every pending migration. Several API instances may start at once
 * on an empty database: a session-level advisory lock lets one migrate while the others wait.
 */
export async function openDatabase(options: DataSourceOptions): Promise<DataSource> {
  const ds = createDataSource(options);
  await ds.initialize();
  const lock = ds.createQueryRunner();
  try {
    await lock.connect();
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await ds.runMigrations();
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } catch (e) {
    await lock.release();
    await ds.destroy();
    throw e;
  }
  await lock.release();
  return ds;
}
