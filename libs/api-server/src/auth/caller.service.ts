import { ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import type { Principal } from './principal';
import { ResearchOwnershipRepository } from './research-ownership.repository';
import { TokenService } from './token.service';
import { UsersRepository } from '../users/users.repository';

/** Reads a bearer token from a request's Authorization header (an HTTP request or a WebSocket upgrade). */
export function bearerToken(req: { headers: Record<string, string | string[] | undefined> }): string | null {
  const h = req.headers['authorization'];
  const value = Array.isArray(h) ? h[0] : h;
  const m = value?.match(/^Bearer\s+(\S+)$/i);
  return m ? m[1]! : null;
}

/**
 * Who is calling, from what the request carries: a staff token, a viewer token or a client's access
 * code. The one place the HTTP guard (AccessGuard) and the live stream's upgrade (LiveAccessService)
 * resolve a caller, so both apply the same rules (expiry, inactive users, token versions raised by a
 * new password or a deactivation, codes revoked by deleting the client's e-mail record).
 */
@Injectable()
export class CallerService {
  constructor(
    private readonly tokens: TokenService,
    private readonly users: UsersRepository,
    private readonly ownership: ResearchOwnershipRepository,
  ) {}

  /** The caller behind a staff or viewer token, or 401/403. */
  async fromToken(token: string | null): Promise<Principal> {
    if (!token) throw new UnauthorizedException('Not authenticated');
    const claims = this.tokens.verifySession(token);
    if (!claims) throw new UnauthorizedException('Could not validate credentials');
    if (claims.typ === 'viewer') {
      // Deleting the client's e-mail record revokes the access at once, not when the token expires.
      if (!(await this.ownership.isInvited(claims.sub, claims.rid)))
        throw new ForbiddenException('Access code no longer valid');
      return { kind: 'viewer', researchId: claims.rid, emailId: claims.sub, expiresAt: new Date(claims.exp * 1000) };
    }
    const user = await this.users.findById(claims.sub);
    // A deleted account, or a token issued before the password changed or the account was deactivated.
    if (!user || user.tokenVersion !== claims.ver) throw new UnauthorizedException('Could not validate credentials');
    if (!user.isActive) throw new ForbiddenException('Inactive user');
    return { kind: 'user', user, expiresAt: new Date(claims.exp * 1000) };
  }

  /** The client whose access code (the id of one of this research's e-mail records) `code` is, or 403. */
  async fromCode(code: string, researchId: string): Promise<Principal> {
    if (!(await this.ownership.isInvited(code, researchId))) throw new ForbiddenException('Invalid access code');
    return { kind: 'viewer', researchId, emailId: code.toLowerCase(), expiresAt: null };
  }
}
