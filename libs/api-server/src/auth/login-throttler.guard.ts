import { createHash } from 'node:crypto';
import { applyDecorators, type ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Throttle, ThrottlerGuard, type ThrottlerLimitDetail, type ThrottlerOptions } from '@nestjs/throttler';
import type { ApiConfig } from '@furnace/config';

/**
 * The limits a route may ask for:
 * - `address`: attempts per minute from one client address (LOGIN_RATE_LIMIT);
 * - `account`: attempts per minute against one account, whatever the address (LOGIN_RATE_LIMIT), so
 *   rotating addresses or X-Forwarded-For does not help a guesser;
 * - `signup`: sign-ups per hour from one client address (SIGNUP_RATE_LIMIT).
 */
export type RateLimit = 'address' | 'account' | 'signup';
const RATE_LIMITS = 'furnace:rate-limits';

/** Applies the named limits (and only those) to a route. */
export const RateLimited = (...limits: RateLimit[]) =>
  applyDecorators(SetMetadata(RATE_LIMITS, limits), UseGuards(LoginThrottlerGuard));

/** The window of the per-address limits (LOGIN_RATE_LIMIT attempts in it). */
export const ADDRESS_WINDOW_MS = 60_000;

/**
 * The counter of code guesses from one client address (`tracker`: the address as the throttler
 * normalises it). POST …/viewer-token and the live stream's `?code=` (auth/code-attempts.ts) both
 * count into it, so a guesser gets LOGIN_RATE_LIMIT a minute over both together.
 */
export const codeAttemptKey = (tracker: string) =>
  createHash('sha256').update(`code-exchange-${tracker}`).digest('hex');

/** The code exchange's limit: per address, counted with the stream's `?code=` (codeAttemptKey). */
export const CodeExchangeLimited = () =>
  applyDecorators(
    RateLimited('address'),
    Throttle({ default: { generateKey: (_ctx: ExecutionContext, tracker: string) => codeAttemptKey(tracker) } }),
  );

/** The sentence of every 429 of the attempt limits: the wait is the one Retry-After gives (a minute for login, up to an hour for sign-up). */
export function tooManyAttempts(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many attempts. Please wait ${minutes === 1 ? 'a minute' : `${minutes} minutes`} and try again.`;
}

const applies = (name: RateLimit) => (ctx: ExecutionContext) =>
  !((Reflect.getMetadata(RATE_LIMITS, ctx.getHandler()) as RateLimit[] | undefined) ?? []).includes(name);

/** The account a request is about: the login form's username or the recovery path's e-mail. */
function accountOf(req: Record<string, unknown>): string {
  const body = (req.body ?? {}) as { username?: unknown };
  const params = (req.params ?? {}) as { email?: unknown };
  return String(body.username ?? params.email ?? '')
    .trim()
    .toLowerCase();
}

/**
 * The throttlers of ThrottlerModule: each applies only to the routes that name it (RateLimited). The
 * client address is req.ip, which believes X-Forwarded-For only from TRUST_PROXY's proxies. With
 * REDIS_URL the counters live in Redis (RedisThrottlerStorage), shared by every API instance; without
 * it, in this process's memory.
 */
export function rateLimits(config: Pick<ApiConfig, 'loginRateLimit' | 'signupRateLimit'>): ThrottlerOptions[] {
  return [
    // The built-in name: its 429 carries Retry-After as it is.
    { name: 'default', ttl: ADDRESS_WINDOW_MS, limit: config.loginRateLimit, skipIf: applies('address') },
    {
      name: 'account',
      ttl: 60_000,
      limit: config.loginRateLimit,
      skipIf: (ctx) => applies('account')(ctx) || !accountOf(ctx.switchToHttp().getRequest<Record<string, unknown>>()),
      getTracker: (req) => `account:${accountOf(req)}`,
    },
    { name: 'signup', ttl: 3_600_000, limit: config.signupRateLimit, skipIf: applies('signup') },
  ];
}

/** Refuses with 429, a sentence for people and Retry-After (seconds) whichever limit was reached. */
@Injectable()
export class LoginThrottlerGuard extends ThrottlerGuard {
  protected override async throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    const res = context.switchToHttp().getResponse<{ setHeader(name: string, value: string): void }>();
    res.setHeader('Retry-After', String(Math.max(1, detail.timeToBlockExpire)));
    return super.throwThrottlingException(context, detail);
  }

  // The dashboard shows the detail as it is: the library's "ThrottlerException: Too Many Requests" is not for people.
  protected override async getErrorMessage(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<string> {
    return tooManyAttempts(detail.timeToBlockExpire);
  }
}
