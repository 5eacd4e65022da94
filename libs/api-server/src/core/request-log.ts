import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Pino } from '@furnace/logger';
import { pinoHttp } from 'pino-http';

/** Polled by load balancers and Prometheus: answered, never logged (a line per probe would drown the log). */
const QUIET_PATHS = new Set(['/api/v1/health', '/api/v1/metrics']);

/** A client's e-mail record is addressed by its id, which is the client's access code. */
const EMAIL_RECORD = /^(\/api\/v1\/research\/emails\/)[^/]+/i;

/** A proxy's X-Request-Id is kept when it looks like an id; anything else is replaced by a new one. */
const SANE_REQUEST_ID = /^[\w-]{1,64}$/;

/** The path as logged: without the one secret that travels in paths (a client's code). */
export function loggedPath(path: string): string {
  return path.replace(EMAIL_RECORD, '$1:id');
}

/** The request's path without its query string (which may carry access codes, tokens and tickets). */
function pathOf(req: IncomingMessage): string {
  const url = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * One line per request when its response ends: `{"context": "HTTP", "req": {"id", "method", "path"},
 * "res": {"status"}, "ms", "msg": "GET /api/v1/… 200 3 ms"}`, through the process's logger. The request id (kept from a sane
 * X-Request-Id, else a new UUID) is echoed in the response's X-Request-Id and bound to every line
 * logged while the request runs (`reqId`). Never logged: the query string, headers (Authorization,
 * Cookie), bodies.
 */
export function requestLog(logger: Pino) {
  return pinoHttp({
    logger: logger.child({ context: 'HTTP' }),
    customSuccessMessage: (req, res, ms) => `${req.method} ${loggedPath(pathOf(req))} ${res.statusCode} ${ms} ms`,
    customErrorMessage: (req, res) => `${req.method} ${loggedPath(pathOf(req))} ${res.statusCode} failed`,
    quietReqLogger: true,
    wrapSerializers: false,
    customAttributeKeys: { responseTime: 'ms' },
    genReqId: (req, res) => {
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    autoLogging: { ignore: (req) => QUIET_PATHS.has(pathOf(req).replace(/\/+$/, '')) },
    serializers: {
      req: (req: IncomingMessage & { id?: unknown }) => ({
        id: req.id,
        method: req.method,
        path: loggedPath(pathOf(req)),
      }),
      res: (res: ServerResponse) => ({ status: res.statusCode }),
    },
  });
}
