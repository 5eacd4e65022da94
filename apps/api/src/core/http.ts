import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express, { type NextFunction, type Request, type Response } from 'express';

export const API_PREFIX = 'api/v1';

/** Placeholder in the built index.html (Vite's html.cspNonce), replaced by each response's CSP nonce. */
export const CSP_NONCE_PLACEHOLDER = '__CSP_NONCE__';

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
      // The path only: query strings may carry access codes, tokens and tickets.
      logger.log({ msg: 'request', request_id: id, method: req.method, path: loggedPath(req.path), status: res.statusCode, ms: Math.round(ms * 10) / 10 });
    });
    next();
  };
}

/** A client's e-mail record is addressed by its id, which is the client's access code. */
const EMAIL_RECORD = /^(\/api\/v1\/research\/emails\/)[^/]+/i;

/** The path as logged: without the one secret that travels in paths (a client's code). */
export function loggedPath(path: string): string {
  return path.replace(EMAIL_RECORD, '$1:id');
}

/** Serves the dashboard build at / with the SPA fallback; the API keeps everything under /api. */
export function serveDashboard(app: NestExpressApplication, distDir: string): boolean {
  const index = join(distDir, 'index.html');
  if (!existsSync(index)) return false;
  // index.html carries the response's CSP nonce (see security-headers.ts): built once, filled per response.
  const html = readFileSync(index, 'utf8').split(CSP_NONCE_PLACEHOLDER);
  app.use((req: Request, _res: Response, next: NextFunction) => {
    // The template itself is never served as a file: it is answered below, with its nonce.
    if (req.path === '/index.html') req.url = '/';
    next();
  });
  app.use(
    express.static(distDir, {
      index: false,
      setHeaders: (res, path) => {
        // Hashed assets never change; index.html must always be fresh.
        res.setHeader('Cache-Control', path.includes(`${join(distDir, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    }),
  );
  app.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path.startsWith('/api/')) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(html.join((res.locals as { cspNonce?: string }).cspNonce ?? ''));
  });
  return true;
}
