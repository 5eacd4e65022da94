export {
  type ApiConfig,
  describeConfig,
  embeddedSecretDir,
  type IngestConfig,
  loadApiConfig,
  loadDatabaseConfig,
  loadIngestConfig,
  loadStandaloneConfig,
  type StandaloneConfig,
} from './config';
export { ConfigError } from './env';
export { DEFAULT_SUPERUSER_PASSWORD, isLoopback, type ProcessConfig } from './sections';
