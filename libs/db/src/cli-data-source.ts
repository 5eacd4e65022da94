// The data source the TypeORM CLI uses to generate migrations: `npm run db:migration:generate -- Name`.
import { loadDatabaseConfig } from '@furnace/config';
import { createDataSource } from './data-source';

export default createDataSource({ url: loadDatabaseConfig().databaseUrl });
