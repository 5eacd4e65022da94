import { createParamDecorator, type ExecutionContext, UnauthorizedException } from '@nestjs/common';
import type { UserEntity } from '@furnace/db';
import type { AuthedRequest } from './principal';

/** The signed-in staff user (routes with the user or superuser rule). */
export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): UserEntity => {
  const p = ctx.switchToHttp().getRequest<AuthedRequest>().principal;
  if (p?.kind !== 'user') throw new UnauthorizedException('Not authenticated');
  return p.user;
});
