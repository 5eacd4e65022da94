import { BlockList, isIP } from 'node:net';
import { type CanActivate, type ExecutionContext, ForbiddenException, Injectable } from '@nestjs/common';
import type { Request } from 'express';

const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6');
}

/** True for loopback, RFC 1918, link-local and IPv6 unique-local addresses (IPv4-mapped IPv6 included). */
export function isPrivateAddress(address: string | undefined): boolean {
  if (!address) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const ip = mapped ? mapped[1]! : address;
  const family = isIP(ip);
  if (family === 4) return PRIVATE.check(ip, 'ipv4');
  if (family === 6) return PRIVATE.check(ip, 'ipv6');
  return false;
}

/**
 * The metrics' access rule: callers on the private network only (Prometheus next to the API).
 * `req.ip` is the client's address as Express resolves it: behind a proxy that TRUST_PROXY names it
 * is the address in X-Forwarded-For, so a request from the internet through the proxy is refused.
 * The proxy must set X-Forwarded-For (nginx, Caddy, Traefik do); without TRUST_PROXY the header is
 * ignored and the socket's address counts.
 */
@Injectable()
export class PrivateNetworkGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.switchToHttp().getRequest<Request>();
    if (!isPrivateAddress(req.ip)) throw new ForbiddenException('Metrics are served to the private network only');
    return true;
  }
}
