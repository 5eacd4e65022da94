import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { ApiConfig } from '@furnace/config';
import { APP_CONFIG } from '../core/tokens';

export interface AccessClaims {
  sub: string;
  typ: 'access';
  /** The account's token version when issued: a token older than the account's current one is refused. */
  ver: number;
  /** Expiry, seconds since the epoch. */
  exp: number;
}
export interface ViewerClaims {
  sub: string;
  rid: string;
  typ: 'viewer';
  exp: number;
}
interface ResetClaims {
  sub: string;
  typ: 'reset';
  /** Fingerprint of the password hash: a token stops working once the password it resets has changed. */
  pwd: string;
}

export const RESET_TOKEN_HOURS = 48;
/** A viewer token lives for one viewing session; the live view exchanges the code again when it expires. */
export const VIEWER_TOKEN_MINUTES = 12 * 60;

/** Signs and checks every token the API issues (HS256 with SECRET_KEY). */
@Injectable()
export class TokenService {
  constructor(
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: ApiConfig,
  ) {}

  accessToken(userId: string, tokenVersion: number): string {
    const claims: Omit<AccessClaims, 'exp'> = { sub: userId, typ: 'access', ver: tokenVersion };
    return this.jwt.sign(claims, { expiresIn: this.config.accessTokenExpireMinutes * 60 });
  }

  viewerToken(emailId: string, researchId: string): string {
    const claims: Omit<ViewerClaims, 'exp'> = { sub: emailId, rid: researchId, typ: 'viewer' };
    return this.jwt.sign(claims, { expiresIn: VIEWER_TOKEN_MINUTES * 60 });
  }

  resetToken(email: string, hashedPassword: string): string {
    const claims: ResetClaims = { sub: email, typ: 'reset', pwd: fingerprint(hashedPassword) };
    return this.jwt.sign(claims, { expiresIn: RESET_TOKEN_HOURS * 3600 });
  }

  /** The claims of a valid access or viewer token; null for anything else (expired, tampered, other type). */
  verifySession(token: string): AccessClaims | ViewerClaims | null {
    const claims = this.verify(token);
    if (typeof claims?.exp !== 'number' || typeof claims.sub !== 'string') return null;
    if (claims.typ === 'access' && typeof claims.ver === 'number')
      return { sub: claims.sub, typ: 'access', ver: claims.ver, exp: claims.exp };
    if (claims.typ === 'viewer' && typeof claims.rid === 'string')
      return { sub: claims.sub, rid: claims.rid, typ: 'viewer', exp: claims.exp };
    return null;
  }

  /** The e-mail a reset token was issued for, if it is valid for the current password hash. */
  verifyReset(token: string, currentHash: (email: string) => Promise<string | null>): Promise<string | null> {
    const claims = this.verify(token);
    if (claims?.typ !== 'reset' || typeof claims.sub !== 'string') return Promise.resolve(null);
    const email = claims.sub;
    return currentHash(email).then((hash) => (hash && fingerprint(hash) === claims.pwd ? email : null));
  }

  private verify(token: string): Record<string, unknown> | null {
    try {
      return this.jwt.verify<Record<string, unknown>>(token, { algorithms: ['HS256'] });
    } catch {
      return null;
    }
  }
}

const fingerprint = (hash: string) => createHash('sha256').update(hash).digest('base64url').slice(0, 16);
