import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants } from 'node:zlib';
import type { NestExpressApplication } from '@nestjs/platform-express';
import compression from 'compression';
import { type NextFunction, type Request, type Response } from 'express';
import expressStaticGzip from 'express-static-gzip';

export const API_PREFIX = 'api/v1';

/** Placeholder in the built index.html (Vite's html.cspNonce), replaced by each response's CSP nonce. */
const CSP_NONCE_PLACEHOLDER = '__CSP_NONCE__';

/**
 * Serves the dashboard build at / with the SPA fallback; the API keeps everything under /api. Each
 * asset goes as the brotli or gzip copy made at build (apps/dashboard/build/precompress.ts) when the
 * request's Accept-Encoding takes it, with `Content-Encoding`, `Vary: Accept-Encoding` and the
 * original file's Content-Type. index.html carries each response's CSP nonce (see
 * security-headers.ts), so it is filled per response and compressed on the fly.
 */
export function serveDashboard(app: NestExpressApplication, distDir: string): boolean {
  const index = join(distDir, 'index.html');
  if (!existsSync(index)) return false;
  const html = readFileSync(index, 'utf8').split(CSP_NONCE_PLACEHOLDER);
  app.use((req: Request, _res: Response, next: NextFunction) => {
    // The template itself is never served as a file: it is answered below, with its nonce.
    if (req.path === '/index.html' || req.path.startsWith('/index.html.')) req.url = '/';
    next();
  });
  const assets = expressStaticGzip(distDir, {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    index: false,
    serveStatic: {
      index: false,
      setHeaders: (res, path) => {
        // Hashed assets never change.
        res.setHeader(
          'Cache-Control',
          path.includes(`${join(distDir, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    },
  });
  // Not for the API: each request there would cost a look at the disk for a file of its path.
  app.use((req: Request, res: Response, next: NextFunction) =>
    req.path.startsWith('/api/') ? next() : assets(req, res, next),
  );
  const compressHtml = compression();
  app.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path.startsWith('/api/')) return next();
    res.setHeader('Cache-Control', 'no-cache');
    compressHtml(req, res, () =>
      res.type('html').send(html.join((res.locals as { cspNonce?: string }).cspNonce ?? '')),
    );
  });
  return true;
}

/**
 * Compresses the API's responses (JSON, the CSV export) for clients that accept it, from 1 kB up, at
 * zlib's fastest level (as nginx does by default): each response is compressed anew, and the history of
 * a 24-hour test (190 kB of JSON) takes 2–3 ms at level 1 against 8–12 ms at the default 6, for a tenth
 * more bytes (docs/performance.md, "History"). Not the WebSocket stream: an upgrade never passes
 * through here, and its frames are sent as they are.
 */
export function compressResponses(): ReturnType<typeof compression> {
  return compression({
    threshold: 1024,
    level: constants.Z_BEST_SPEED,
    filter: (req, res) => !req.headers.upgrade && compression.filter(req, res),
  });
}
