import {
  ForbiddenException,
  HttpException,
  Injectable,
  NotFoundException,
  UnauthorizedException,
} from '@nestjs/common';
import { PASSWORD_CHANGE_REQUIRED } from '../auth/access.guard';
import { CallerService } from '../auth/caller.service';
import { ResearchOwnershipRepository } from '../auth/research-ownership.repository';
import type { Revocation } from '../auth/revocations';
import { UsersRepository } from '../users/users.repository';
import { LiveRepository } from './live.repository';
import { StreamTickets } from './stream-tickets';

/** What the stream's URL carries for access. */
export interface StreamCredentials {
  /**
   * ?ticket=: a single-use ticket from POST /research/{id}/stream-ticket (what the dashboard uses).
   */
  ticket?: string | null;
  /** ?token= (or an Authorization bearer): a staff access token, or a viewer token of this research (scripts, k6). */
  token: string | null;
  /** ?code=: the id of one of this research's client e-mail records (scripts, k6). */
  code: string | null;
}

/** Whose access an open stream rests on, so a revocation or an expiry can close it. */
export interface StreamAccess {
  userId: string | null;
  emailId: string | null;
  /** When the credential ends; null: only when revoked (an access code). */
  expiresAt: Date | null;
}

/**
 * Who may watch a research's live stream: staff (any active user), a client holding a viewer token
 * issued for this research, or a client holding this research's access code, or a ticket bought
 * with one of those. Checked before the upgrade, so a refused caller receives an HTTP error and
 * never a frame. Credentials are checked before the research's existence, so an anonymous caller
 * learns nothing about which ids exist.
 */
@Injectable()
export class LiveAccessService {
  constructor(
    private readonly callers: CallerService,
    private readonly repository: LiveRepository,
    private readonly tickets: StreamTickets,
    private readonly users: UsersRepository,
    private readonly ownership: ResearchOwnershipRepository,
  ) {}

  /** Resolves with whose access it is when the caller may watch; throws the HTTP exception to answer otherwise. */
  async authorize(researchId: string, credentials: StreamCredentials): Promise<StreamAccess> {
    let access: StreamAccess;
    if (credentials.ticket) {
      const holder = await this.tickets.redeem(credentials.ticket, researchId);
      if (!holder) throw new UnauthorizedException('Invalid or expired ticket');
      // The access the ticket was bought with must still hold now.
      if (holder.userId) {
        const user = await this.users.findById(holder.userId);
        if (!user?.isActive) throw new UnauthorizedException('Could not validate credentials');
      } else if (!holder.emailId || !(await this.ownership.isInvited(holder.emailId, researchId))) {
        throw new ForbiddenException('Access code no longer valid');
      }
      access = { userId: holder.userId, emailId: holder.emailId, expiresAt: holder.credentialExpiresAt };
    } else if (credentials.token) {
      // The same token rules as every REST route (expiry, revoked codes, inactive users, token version).
      const principal = await this.callers.fromToken(credentials.token);
      if (principal.kind === 'viewer' && principal.researchId !== researchId) {
        throw new ForbiddenException("The user doesn't have enough privileges");
      }
      if (principal.kind === 'user' && principal.user.mustChangePassword)
        throw new ForbiddenException(PASSWORD_CHANGE_REQUIRED);
      access =
        principal.kind === 'user'
          ? { userId: principal.user.id, emailId: null, expiresAt: principal.expiresAt }
          : { userId: null, emailId: principal.emailId, expiresAt: principal.expiresAt };
    } else if (credentials.code) {
      const principal = await this.callers.fromCode(credentials.code, researchId);
      access = { userId: null, emailId: principal.kind === 'viewer' ? principal.emailId : null, expiresAt: null };
    } else {
      throw new UnauthorizedException('Not authenticated');
    }
    if (!(await this.repository.researchExists(researchId))) throw new NotFoundException('Research not found');
    return access;
  }

  forgetTickets(revocation: Revocation): Promise<void> {
    return this.tickets.forget(revocation);
  }
}

/** Status and message of an error for the upgrade response: HTTP exceptions as they are, anything else a 500. */
export function httpError(error: unknown): { status: number; detail: string } {
  if (error instanceof HttpException) {
    const body = error.getResponse();
    const detail = typeof body === 'string' ? body : ((body as { message?: unknown }).message ?? error.message);
    return { status: error.getStatus(), detail: typeof detail === 'string' ? detail : error.message };
  }
  return { status: 500, detail: 'Internal server error' };
}
