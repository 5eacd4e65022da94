import { ConsoleLogger, type LoggerService } from '@nestjs/common';
import type { AppConfig } from '@furnace/config';

/**
 * The log format of every process (API, ingest, the standalone system): one JSON line per event in
 * production, readable lines in development; warnings and errors only under NODE_ENV=test.
 */
export function createLogger(config: Pick<AppConfig, 'logFormat' | 'env'>, context = 'furnace'): LoggerService {
  const logger = new ConsoleLogger(context, { json: config.logFormat === 'json', colors: config.logFormat !== 'json' && process.stdout.isTTY, prefix: 'furnace' });
  if (config.env === 'test') logger.setLogLevels(['error', 'warn']);
  return logger;
}
