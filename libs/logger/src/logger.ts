import type { LoggerService } from '@nestjs/common';
import { type DestinationStream, type Logger as Pino, pino } from 'pino';
import pretty from 'pino-pretty';
import type { ProcessConfig } from '@furnace/config';

export type { Pino };

/**
 * The one logger of a process (API, ingest, the standalone system): pino, writing one JSON line per
 * event under LOG_FORMAT=json (production's default) and readable one-line events under
 * LOG_FORMAT=pretty; warnings and errors only under NODE_ENV=test. Nest's Logger (every
 * `new Logger('Context')` of the apps) and the API's request log (see the API's request-log.ts)
 * both write through it.
 */
export interface FurnaceLogger extends LoggerService {
  readonly pino: Pino;
}

/** `destination`: where the lines go (stdout unless given; tests pass a stream they read). */
export function createLogger(
  config: Pick<ProcessConfig, 'logFormat' | 'env'>,
  context = 'furnace',
  destination?: DestinationStream,
): FurnaceLogger {
  const json = config.logFormat === 'json';
  const out =
    destination ??
    (json
      ? pino.destination({ fd: 1, sync: true })
      : pretty({
          sync: true,
          colorize: process.stdout.isTTY,
          singleLine: true,
          translateTime: 'SYS:HH:MM:ss.l',
          ignore: 'pid,hostname,context',
          messageFormat: '[{context}] {msg}',
        }));
  const root = pino(
    {
      level: config.env === 'test' ? 'warn' : 'trace',
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    out,
  );
  return nestLogger(root, context);
}

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/** Nest's LoggerService over pino: `log(message, context)` → `{"level":"info","context":…,"msg":…}`. */
function nestLogger(pino: Pino, defaultContext: string): FurnaceLogger {
  const at =
    (level: Level) =>
    (message: unknown, ...rest: unknown[]) =>
      write(pino, level, message, rest, defaultContext);
  return {
    pino,
    log: at('info'),
    error: at('error'),
    warn: at('warn'),
    debug: at('debug'),
    verbose: at('trace'),
    fatal: at('fatal'),
  };
}

function write(pino: Pino, level: Level, message: unknown, rest: unknown[], defaultContext: string): void {
  // Nest passes the context last, and for errors a stack trace before it.
  const context =
    rest.length && typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
  const stack = rest.length > 1 && typeof rest[0] === 'string' ? rest[0] : undefined;
  const fields: Record<string, unknown> = { context: context ?? defaultContext };
  if (message instanceof Error) pino[level]({ ...fields, err: message }, message.message);
  else if (typeof message === 'object' && message !== null) pino[level]({ ...fields, ...message });
  else if (stack) pino[level]({ ...fields, stack }, String(message));
  else pino[level](fields, String(message));
}
