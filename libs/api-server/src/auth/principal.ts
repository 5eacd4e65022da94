import type { UserEntity } from '@furnace/db';

/** Who is calling: a member of staff (a user) or a client watching one research. */
export type Principal =
  // expiresAt: when the credential ends (the token's expiry; null for an access code, which lasts until revoked).
  | { kind: 'user'; user: UserEntity; expiresAt: Date }
  | { kind: 'viewer'; researchId: string; emailId: string; expiresAt: Date | null };

export interface AuthedRequest {
  principal?: Principal;
  params: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
}
