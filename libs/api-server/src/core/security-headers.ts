import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { API_PREFIX } from './http';

const nonceOf = (res: Response) => `'nonce-${(res.locals as { cspNonce: string }).cspNonce}'`;

/**
 * Security headers on every response (helmet), see README "Security model":
 * - Content-Security-Policy: scripts from this origin only; styles from this origin plus the
 *   `<style>` elements Mantine injects, which carry the response's nonce; frames, media and fetches
 *   of camera streams from https: origins only; `frame-ancestors` from FRAME_ANCESTORS ('none');
 * - X-Content-Type-Options: nosniff; Referrer-Policy: no-referrer (a client's code is in its page URL);
 * - Strict-Transport-Security only on a request that came over https (directly or, behind a trusted
 *   proxy, by X-Forwarded-Proto): on plain http it would mean nothing, and a lab serving on http
 *   must not be pinned to https by a header.
 * The API docs page (Swagger UI) ships an inline stylesheet: it alone may use inline styles.
 */
export function securityHeaders(options: {
  frameAncestors: string[];
}): (req: Request, res: Response, next: NextFunction) => void {
  const docs = `/${API_PREFIX}/docs`;
  const isDocs = (req: Request) => req.path === docs || req.path.startsWith(`${docs}/`);
  const base = {
    defaultSrc: ["'self'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    objectSrc: ["'none'"],
    scriptSrc: ["'self'"],
    scriptSrcAttr: ["'none'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'", 'data:'],
    // Camera links: an iframe of an https: page, or an HLS playlist fetched by hls.js and played from a blob.
    frameSrc: ['https:'],
    connectSrc: ["'self'", 'https:'],
    mediaSrc: ["'self'", 'blob:', 'https:'],
    workerSrc: ["'self'", 'blob:'],
    manifestSrc: ["'self'"],
    frameAncestors: options.frameAncestors,
    upgradeInsecureRequests: null,
  };
  const app = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { ...base, styleSrc: ["'self'", (_req, res) => nonceOf(res as Response)] },
    },
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'no-referrer' },
    // Camera iframes are other sites' pages: no cross-origin isolation demanded of them.
    crossOriginEmbedderPolicy: false,
  });
  const swagger = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { ...base, styleSrc: ["'self'", "'unsafe-inline'"] } },
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginEmbedderPolicy: false,
  });
  const hsts = helmet.strictTransportSecurity({ maxAge: 365 * 24 * 3600, includeSubDomains: false });
  return (req, res, next) => {
    (res.locals as { cspNonce: string }).cspNonce = randomBytes(16).toString('base64');
    (isDocs(req) ? swagger : app)(req, res, (err?: unknown) => {
      if (err) return next(err);
      if (req.secure) return hsts(req, res, next);
      next();
    });
  };
}
