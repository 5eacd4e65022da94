import { type CanActivate, type ExecutionContext, ForbiddenException, Injectable, Logger, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ACCESS_RULE, type AccessRule, PASSWORD_CHANGE_PENDING, RESEARCH_TARGET, type ResearchTarget } from './access.decorator';
import type { AuthedRequest, Principal } from './principal';
import { ResearchOwnershipRepository } from './research-ownership.repository';
import { TokenService } from './token.service';
import { UsersRepository } from '../users/users.repository';

export const PASSWORD_CHANGE_REQUIRED = 'password change required';

/** Reads a bearer token from the Authorization header. */
export function bearerToken(req: Pick<AuthedRequest, 'headers'>): string | null {
  const h = req.headers['authorization'];
  const value = Array.isArray(h) ? h[0] : h;
  const m = value?.match(/^Bearer\s+(\S+)$/i);
  return m ? m[1] : null;
}

/**
 * The one gate every HTTP route passes: it applies the route's access rule (access.decorator.ts).
 * A route without a rule is refused here as well as at start-up.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly logger = new Logger('Access');

  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokenService,
    private readonly users: UsersRepository,
    private readonly ownership: ResearchOwnershipRepository,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const targets = [ctx.getHandler(), ctx.getClass()];
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, targets);
    if (!rule) {
      this.logger.error(`Route without an access rule: ${ctx.getClass().name}.${ctx.getHandler().name}`);
      throw new ForbiddenException('Access denied');
    }
    if (rule === 'public') return true;
    const req = ctx.switchToHttp().getRequest<AuthedRequest>();
    const principal = await this.resolve(bearerToken(req));
    req.principal = principal;
    if (principal.kind === 'viewer') {
      // A viewer reads one research: what the path names must belong to theirs.
      const target = this.reflector.getAllAndOverride<ResearchTarget | undefined>(RESEARCH_TARGET, targets);
      const researchId = rule === 'research' && target ? await this.ownership.researchOf(target.kind, req.params[target.param]) : null;
      if (researchId !== principal.researchId) throw new ForbiddenException("The user doesn't have enough privileges");
      return true;
    }
    if (principal.user.mustChangePassword && !this.reflector.getAllAndOverride<boolean | undefined>(PASSWORD_CHANGE_PENDING, targets)) {
      throw new ForbiddenException(PASSWORD_CHANGE_REQUIRED);
    }
    if (rule === 'superuser' && !principal.user.isSuperuser) {
      throw new ForbiddenException("The user doesn't have enough privileges");
    }
    return true;
  }

  /** The caller behind a token, or 401/403. Shared with the WebSocket upgrade. */
  async resolve(token: string | null): Promise<Principal> {
    if (!token) throw new UnauthorizedException('Not authenticated');
    const claims = this.tokens.verifySession(token);
    if (!claims) throw new UnauthorizedException('Could not validate credentials');
    if (claims.typ === 'viewer') {
      // Deleting the client's e-mail record revokes the access at once, not when the token expires.
      if (!(await this.ownership.isInvited(claims.sub, claims.rid))) throw new ForbiddenException('Access code no longer valid');
      return { kind: 'viewer', researchId: claims.rid, emailId: claims.sub, expiresAt: new Date(claims.exp * 1000) };
    }
    const user = await this.users.findById(claims.sub);
    // A deleted account, or a token issued before the password changed or the account was deactivated.
    if (!user || user.tokenVersion !== claims.ver) throw new UnauthorizedException('Could not validate credentials');
    if (!user.isActive) throw new ForbiddenException('Inactive user');
    return { kind: 'user', user, expiresAt: new Date(claims.exp * 1000) };
  }
}
