import 'reflect-metadata';
import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, type EntityManager, type LoggerOptions } from 'typeorm';
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
  return oneConnectionPerTransaction(
    new DataSource({
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
    }),
  );
}

/** Set while a transaction's callback runs (`open` false once it returned), for the code it calls. */
const inTransaction = new AsyncLocalStorage<{ open: boolean }>();

/**
 * Refuses a query on another connection from inside a transaction (`dataSource.transaction(fn)`: `fn` and what
 * it calls must use the EntityManager it is given). On the embedded database, one session for every connection,
 * such a query waits until the transaction ends, and the transaction waits for it: the whole database stops
 * for good (docs/architecture.md, "Two ways to run: embedded and services"). On PostgreSQL it would read
 * around the transaction's own writes. Refused on both, so that a test on either finds it.
 */
function oneConnectionPerTransaction(ds: DataSource): DataSource {
  const createQueryRunner = ds.createQueryRunner.bind(ds);
  ds.createQueryRunner = (mode) => {
    if (inTransaction.getStore()?.open)
      throw new Error(
        "A query on another connection inside a transaction (use the transaction's EntityManager): on the embedded database it would wait for the transaction for good",
      );
    return createQueryRunner(mode);
  };
  const manager = ds.manager;
  const transaction = manager.transaction.bind(manager) as (
    isolation: string | undefined,
    run: (em: EntityManager) => Promise<unknown>,
  ) => Promise<unknown>;
  const guarded =
    (run: (em: EntityManager) => Promise<unknown>) =>
    async (em: EntityManager): Promise<unknown> => {
      const state = { open: true };
      try {
        return await inTransaction.run(state, () => run(em));
      } finally {
        state.open = false;
      }
    };
  // (run) or (isolation, run); DataSource.transaction passes both, the second undefined when not given.
  manager.transaction = ((
    isolationOrRun: string | ((em: EntityManager) => Promise<unknown>),
    run?: (em: EntityManager) => Promise<unknown>,
  ) =>
    typeof isolationOrRun === 'function'
      ? transaction(undefined, guarded(isolationOrRun))
      : transaction(isolationOrRun, guarded(run!))) as EntityManager['transaction'];
  return ds;
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
