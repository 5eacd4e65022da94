import { applyDecorators, SetMetadata } from '@nestjs/common';

/**
 * Who may call a route. Every route carries exactly one rule; the API refuses to start when one is
 * missing (see assertAccessRules), so no route is open by omission.
 * - public: anyone;
 * - user: any signed-in, active user (staff);
 * - superuser: an administrator;
 * - research: staff, or a client whose viewer token is for the research the route reads.
 */
export type AccessRule = 'public' | 'user' | 'superuser' | 'research';
export const ACCESS_RULE = 'furnace:access-rule';
export const RESEARCH_TARGET = 'furnace:research-target';

/** What a path parameter names, so the guard can find the research it belongs to. */
export type ResearchTargetKind = 'research' | 'thermo-config';
export interface ResearchTarget {
  param: string;
  kind: ResearchTargetKind;
}

export const Public = () => SetMetadata(ACCESS_RULE, 'public');
export const SignedIn = () => SetMetadata(ACCESS_RULE, 'user');
export const SuperuserOnly = () => SetMetadata(ACCESS_RULE, 'superuser');

/**
 * Staff, or a client whose viewer token is scoped to the research the path parameter `param` names
 * (directly, or through a resource of that research such as a thermocouple config).
 */
export const ResearchReader = (param = 'id', kind: ResearchTargetKind = 'research') =>
  applyDecorators(
    SetMetadata(ACCESS_RULE, 'research'),
    SetMetadata(RESEARCH_TARGET, { param, kind } satisfies ResearchTarget),
  );

export const PASSWORD_CHANGE_PENDING = 'furnace:password-change-pending';

/**
 * A route a user who must change their password (the first superuser with the default one) may
 * still call: reading who they are and changing the password. Every other route answers 403
 * `password change required` for them.
 */
export const PasswordChangePending = () => SetMetadata(PASSWORD_CHANGE_PENDING, true);
