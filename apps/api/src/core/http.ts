import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import compression from 'compression';
import { type NextFunction, type Request, type Response } from 'express';
import expressStaticGzip from 'express-static-gzip';

export const API_PREFIX = 'api/v1';

/** Gives each request an id (kept from X-Request-Id when a proxy set one) and logs it once when it ends. */
export function requestLog(): (req: Request, res: Response, next: NextFunction) => void {
  const logger = new Logger('HTTP');
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    res.setHeader('X-Request-Id', id);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      if (req.path === `/${API_PREFIX}/health`) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // The path only: query strings may carry access codes and tokens.
      logger.log({ msg: 'request', request_id: id, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 });
    });
    next();
  };
}

/**
 * Serves the dashboard build at / with the SPA fallback; the API keeps everything under /api. Each
 * file goes as the brotli or gzip copy made at build (apps/dashboard/build/precompress.ts) when the
 * request's Accept-Encoding takes it, with `Content-Encoding`, `Vary: Accept-Encoding` and the
 * original file's Content-Type; as it is otherwise.
 */
export function serveDashboard(app: NestExpressApplication, distDir: string): boolean {
  const index = join(distDir, 'index.html');
  if (!existsSync(index)) return false;
  const files = expressStaticGzip(distDir, {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    index: false,
    serveStatic: {
      index: false,
      setHeaders: (res, path) => {
        // Hashed assets never change; index.html must always be fresh.
        res.setHeader('Cache-Control', path.includes(`${join(distDir, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    },
  });
  app.use(files);
  app.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path.startsWith('/api/')) return next();
    // Any other path is a route of the dashboard: its index.html, compressed like the assets.
    req.url = '/index.html';
    files(req, res, next);
  });
  return true;
}

/**
 * Compresses the API's responses (JSON, the CSV export) for clients that accept it, from 1 kB up.
 * Not the WebSocket stream: an upgrade never passes through here, and its frames are sent as they are.
 */
export function compressResponses(): ReturnType<typeof compression> {
  return compression({
    threshold: 1024,
    filter: (req, res) => !req.headers.upgrade && compression.filter(req, res),
  });
}
