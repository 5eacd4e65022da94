import type { IncomingMessage } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { InjectThrottlerStorage, normalizeIp, type ThrottlerStorage } from '@nestjs/throttler';
import type { ApiConfig } from '@furnace/config';
import { APP_CONFIG } from '../core/tokens';
import { ADDRESS_WINDOW_MS, codeAttemptKey } from './login-throttler.guard';

/**
 * The code exchange's throttle for a request that no guard sees: the live stream's upgrade with
 * `?code=`. Counts into the same counter (throttler storage: Redis when the instances share one) and
 * with the same limit as POST …/viewer-token (LOGIN_RATE_LIMIT a minute per client address), so
 * guesses over both are counted together, on every instance.
 */
@Injectable()
export class CodeAttempts {
  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    @Inject(APP_CONFIG) private readonly config: Pick<ApiConfig, 'loginRateLimit'>,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** Counts one attempt of the request's client; resolves with the seconds to wait when it is over the limit, else null. */
  async attempt(req: IncomingMessage): Promise<number | null> {
    const tracker = normalizeIp(this.clientAddress(req));
    const { isBlocked, timeToBlockExpire } = await this.storage.increment(
      codeAttemptKey(tracker),
      ADDRESS_WINDOW_MS,
      this.config.loginRateLimit,
      ADDRESS_WINDOW_MS,
      'default',
    );
    return isBlocked ? Math.max(1, timeToBlockExpire) : null;
  }

  /**
   * The client's address as Express gives it to the REST routes (req.ip): X-Forwarded-For believed
   * only from TRUST_PROXY's proxies. An upgrade never passes through Express, so its request is read
   * through the application's request prototype, which carries the app's `trust proxy` setting.
   */
  private clientAddress(req: IncomingMessage): string {
    const express = this.adapterHost.httpAdapter.getInstance<{ request: object }>();
    const view = Object.create(express.request, { headers: { value: req.headers }, socket: { value: req.socket } }) as {
      ip?: string;
    };
    return view.ip ?? req.socket.remoteAddress ?? '';
  }
}
