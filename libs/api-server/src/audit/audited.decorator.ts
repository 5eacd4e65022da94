import { SetMetadata } from '@nestjs/common';

export const AUDIT_DECLARATION = 'furnace:audit';

/**
 * What a route that changes something (every POST, PUT, PATCH and DELETE) says of the audit trail: the entities
 * whose entries it writes, or why it writes none. test/audit-coverage.int-spec.ts fails for a changing route that
 * says neither, and calls each audited one to see its entries written.
 */
export type AuditDeclaration = { entities: readonly string[] } | { reason: string };

/** The route writes audit entries of these entities (AuditService.record). */
export const Audited = (...entities: [string, ...string[]]) =>
  SetMetadata(AUDIT_DECLARATION, { entities } satisfies AuditDeclaration);

/** The route changes nothing the audit trail keeps: why. */
export const NotAudited = (reason: string) => SetMetadata(AUDIT_DECLARATION, { reason } satisfies AuditDeclaration);
