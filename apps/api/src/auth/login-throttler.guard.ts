import { Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';

/**
 * Limits login and recovery attempts per client address and account, so a password cannot be
 * brute-forced and an inbox cannot be flooded. The counters live in each API instance's memory: with
 * N instances behind a balancer the effective limit is N times higher (still bounded).
 */
@Injectable()
export class LoginThrottlerGuard extends ThrottlerGuard {
  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    const body = (req.body ?? {}) as { username?: unknown };
    const params = (req.params ?? {}) as { email?: unknown };
    const account = String(body.username ?? params.email ?? '').trim().toLowerCase();
    return `${String(req.ip)}|${account}`;
  }

  // The dashboard shows the detail as it is: the library's "ThrottlerException: Too Many Requests" is not for people.
  protected override async getErrorMessage(): Promise<string> {
    return 'Too many attempts. Please wait a minute and try again.';
  }
}
