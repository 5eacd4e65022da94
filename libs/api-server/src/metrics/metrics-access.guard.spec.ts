import type { ExecutionContext } from '@nestjs/common';
import type { ApiConfig } from '@furnace/config';
import { MetricsAccessGuard } from './metrics-access.guard';

const TOKEN = 'a-metrics-token-of-at-least-32-characters';

/** What the guard reads of a request: its socket's address and its headers. */
function allowed(
  metricsToken: string | undefined,
  remoteAddress: string,
  headers: Record<string, string> = {},
): boolean {
  const guard = new MetricsAccessGuard({ metricsToken } as ApiConfig);
  const ctx = {
    switchToHttp: () => ({ getRequest: () => ({ socket: { remoteAddress }, headers }) }),
  } as unknown as ExecutionContext;
  try {
    return guard.canActivate(ctx);
  } catch {
    return false;
  }
}

describe('MetricsAccessGuard', () => {
  describe('without METRICS_TOKEN (npm start as it comes)', () => {
    it.each(['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.0.1.1'])('serves this machine (%s)', (address) => {
      expect(allowed(undefined, address)).toBe(true);
    });
    it.each(['192.168.1.10', '10.1.2.3', '172.30.0.5', 'fd00::1', '203.0.113.9', '::ffff:192.168.0.5', ''])(
      'refuses another machine, on the LAN or not (%s)',
      (address) => {
        expect(allowed(undefined, address)).toBe(false);
      },
    );
    it.each(['X-Forwarded-For', 'Forwarded', 'X-Real-IP'])(
      'refuses a request a proxy on this machine relays (%s)',
      (header) => {
        expect(allowed(undefined, '127.0.0.1', { [header.toLowerCase()]: '127.0.0.1' })).toBe(false);
      },
    );
    it('refuses a token when none is configured', () => {
      expect(allowed(undefined, '192.168.1.10', { authorization: `Bearer ${TOKEN}` })).toBe(false);
    });
  });

  describe('with METRICS_TOKEN', () => {
    it('serves a request with the token from anywhere', () => {
      expect(allowed(TOKEN, '203.0.113.9', { authorization: `Bearer ${TOKEN}` })).toBe(true);
      expect(allowed(TOKEN, '10.1.2.3', { authorization: `bearer ${TOKEN}`, 'x-forwarded-for': '10.1.2.3' })).toBe(
        true,
      );
    });
    it.each([
      ['no token', {}],
      ['another token', { authorization: `Bearer ${TOKEN}x` }],
      ['a prefix of it', { authorization: `Bearer ${TOKEN.slice(0, 10)}` }],
      ['it as Basic credentials', { authorization: `Basic ${TOKEN}` }],
    ])('refuses %s, from this machine too', (_what, headers) => {
      expect(allowed(TOKEN, '127.0.0.1', headers)).toBe(false);
    });
  });
});
