import { createParamDecorator, type ExecutionContext, UnauthorizedException } from '@nestjs/common';
import type { UserEntity } from '@furnace/db';
import type { AuthedRequest, Principal } from './principal';

/** The signed-in staff user (routes with the user or superuser rule). */
export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): UserEntity => {
  const p = ctx.switchToHttp().getRequest<AuthedRequest>().principal;
  if (p?.kind !== 'user') throw new UnauthorizedException('Not authenticated');
  return p.user;
});

/** The caller of a research route: staff or a viewer of that research. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const p = ctx.switchToHttp().getRequest<AuthedRequest>().principal;
  if (!p) throw new UnauthorizedException('Not authenticated');
  return p;
});
