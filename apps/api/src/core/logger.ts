import { ConsoleLogger, type LoggerService } from '@nestjs/common';
import type { AppConfig } from '@furnace/config';

/** One JSON line per event in production, readable lines in development. */
export function createLogger(config: Pick<AppConfig, 'logFormat' | 'env'>, context = 'furnace'): LoggerService {
  const logger = new ConsoleLogger(context, { json: config.logFormat === 'json', colors: config.logFormat !== 'json' && process.stdout.isTTY, prefix: 'furnace' });
  if (config.env === 'test') logger.setLogLevels(['error', 'warn']);
  return logger;
}
