import { ForbiddenException, HttpException, Injectable, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { CallerService } from '../auth/caller.service';
import { LiveRepository } from './live.repository';

/** What the stream's URL carries for access. */
export interface StreamCredentials {
  /** ?token= (or an Authorization bearer): a staff access token, or a viewer token of this research. */
  token: string | null;
  /** ?code=: the id of one of this research's client e-mail records. */
  code: string | null;
}

/**
 * Who may watch a research's live stream: staff (any active user), a client holding a viewer token
 * issued for this research, or a client holding this research's access code. Checked before the
 * upgrade, so a refused caller receives an HTTP error and never a frame. Credentials are checked
 * before the research's existence, so an anonymous caller learns nothing about which ids exist.
 */
@Injectable()
export class LiveAccessService {
  constructor(
    private readonly callers: CallerService,
    private readonly repository: LiveRepository,
  ) {}

  /** Resolves when the caller may watch; throws the HTTP exception to answer otherwise. */
  async authorize(researchId: string, credentials: StreamCredentials): Promise<void> {
    if (credentials.token) {
      // The same token rules as every REST route (expiry, revoked codes, inactive users).
      const principal = await this.callers.fromToken(credentials.token);
      if (principal.kind === 'viewer' && principal.researchId !== researchId) {
        throw new ForbiddenException("The user doesn't have enough privileges");
      }
    } else if (credentials.code) {
      await this.callers.fromCode(credentials.code, researchId);
    } else {
      throw new UnauthorizedException('Not authenticated');
    }
    if (!(await this.repository.researchExists(researchId))) throw new NotFoundException('Research not found');
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
