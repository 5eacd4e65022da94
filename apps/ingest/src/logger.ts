import { ConsoleLogger, type LoggerService } from '@nestjs/common';
import type { AppConfig } from '@furnace/config';

/** The same log format as the API: one JSON line per event in production, readable lines in development. */
export function createIngestLogger(config: Pick<AppConfig, 'logFormat' | 'env'>): LoggerService {
  const logger = new ConsoleLogger('ingest', { json: config.logFormat === 'json', colors: config.logFormat !== 'json' && process.stdout.isTTY, prefix: 'furnace' });
  if (config.env === 'test') logger.setLogLevels(['error', 'warn']);
  return logger;
}
