import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Bus } from '@furnace/bus';
import { BUS } from '../core/tokens';

/** What lost its access: every token of a user, or a client's e-mail record (their code). */
export type Revocation = { user: string } | { email: string };

/** The bus channel every API instance listens on for revocations. */
const REVOCATIONS_CHANNEL = 'furnace:revocations';

/**
 * Announces revoked access to every API instance (on the bus), so each closes the live streams
 * that access opened. REST requests need no message: every request checks the database.
 */
@Injectable()
export class Revocations {
  private readonly logger = new Logger('Revocations');

  constructor(@Inject(BUS) private readonly bus: Bus) {}

  /** Best effort: a bus failure is logged; the stream's own expiry and REST checks still hold. */
  async publish(revocation: Revocation): Promise<void> {
    await this.bus
      .publish(REVOCATIONS_CHANNEL, JSON.stringify(revocation))
      .catch((e: Error) => this.logger.warn(`Revocation not announced: ${e.message}`));
  }

  subscribe(handler: (revocation: Revocation) => void): Promise<() => Promise<void>> {
    return this.bus.subscribe(REVOCATIONS_CHANNEL, (raw) => {
      const parsed = parseRevocation(raw);
      if (parsed) handler(parsed);
    });
  }
}

function parseRevocation(raw: string): Revocation | null {
  try {
    const value = JSON.parse(raw) as Record<string, unknown>;
    if (typeof value.user === 'string') return { user: value.user };
    if (typeof value.email === 'string') return { email: value.email };
  } catch {
    // not ours
  }
  return null;
}
