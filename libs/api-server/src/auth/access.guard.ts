import { type CanActivate, type ExecutionContext, ForbiddenException, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  ACCESS_RULE,
  type AccessRule,
  PASSWORD_CHANGE_PENDING,
  RESEARCH_TARGET,
  type ResearchTarget,
} from './access.decorator';
import { bearerToken, CallerService } from './caller.service';
import type { AuthedRequest } from './principal';
import { ResearchOwnershipRepository } from './research-ownership.repository';

export const PASSWORD_CHANGE_REQUIRED = 'password change required';

/**
 * The one gate every HTTP route passes: it applies the route's access rule (access.decorator.ts).
 * A route without a rule is refused here as well as at start-up.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly logger = new Logger('Access');

  constructor(
    private readonly reflector: Reflector,
    private readonly callers: CallerService,
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
    const principal = await this.callers.fromToken(bearerToken(req));
    req.principal = principal;
    if (principal.kind === 'viewer') {
      // A viewer reads one research: what the path names must belong to theirs.
      const target = this.reflector.getAllAndOverride<ResearchTarget | undefined>(RESEARCH_TARGET, targets);
      const researchId =
        rule === 'research' && target ? await this.ownership.researchOf(target.kind, req.params[target.param]) : null;
      if (researchId !== principal.researchId) throw new ForbiddenException("The user doesn't have enough privileges");
      return true;
    }
    if (
      principal.user.mustChangePassword &&
      !this.reflector.getAllAndOverride<boolean | undefined>(PASSWORD_CHANGE_PENDING, targets)
    ) {
      throw new ForbiddenException(PASSWORD_CHANGE_REQUIRED);
    }
    if (rule === 'superuser' && !principal.user.isSuperuser) {
      throw new ForbiddenException("The user doesn't have enough privileges");
    }
    return true;
  }
}
