import { createHash, timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, ForbiddenException, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { type ApiConfig, isLoopback } from '@furnace/config';
import { bearerToken } from '../auth/caller.service';
import { APP_CONFIG } from '../core/tokens';

/** Headers a proxy adds: a request that carries one came through a proxy, whatever its socket's address. */
const FORWARDED = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

const digest = (text: string) => createHash('sha256').update(text).digest();

/** True when `given` is the token (compared in constant time). */
function isToken(given: string | null, token: string): boolean {
  return given !== null && timingSafeEqual(digest(given), digest(token));
}

/**
 * The metrics' access rule, closed by default (README "Metrics"). With METRICS_TOKEN set, a request that
 * carries it as a bearer token (Prometheus's `authorization` setting), from anywhere; nothing else. Without
 * it, a request from this machine only: its socket's address on loopback and no proxy's header, so neither
 * a caller on the network the API listens on nor one relayed by a proxy on this machine reads them,
 * whatever TRUST_PROXY says.
 */
@Injectable()
export class MetricsAccessGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: ApiConfig) {}

  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.switchToHttp().getRequest<Request>();
    const token = this.config.metricsToken;
    if (token !== undefined) {
      if (isToken(bearerToken(req), token)) return true;
      throw new ForbiddenException('Metrics need the bearer token METRICS_TOKEN');
    }
    const address = (req.socket.remoteAddress ?? '').replace(/^::ffff:/i, '');
    if (isLoopback(address) && !FORWARDED.some((h) => req.headers[h] !== undefined)) return true;
    throw new ForbiddenException('Metrics are served to this machine only, or with the bearer token METRICS_TOKEN');
  }
}
