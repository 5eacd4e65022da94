// The data source the TypeORM CLI uses to generate migrations: `npm run db:migration:generate -- Name`.
import { loadConfig } from '@furnace/config';
import { createDataSource } from './data-source';

const config = loadConfig();
if (!config.databaseUrl) throw new Error('DATABASE_URL must point at a PostgreSQL server to generate migrations');
export default createDataSource({ url: config.databaseUrl });
