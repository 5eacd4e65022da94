import { createFileRoute, redirect } from '@tanstack/react-router';
import { z } from 'zod';
import { currentUserQueryOptions } from '../../api/users';
import { AuditPage } from '../../features/audit/AuditPage';
import type { AuditFilters } from '../../features/audit/audit-api';

export const Route = createFileRoute('/_layout/audit')({
  validateSearch: z.object({
    page: z.number().int().min(1).optional().catch(undefined),
    actor: z.string().optional().catch(undefined),
    research_id: z.uuid().optional().catch(undefined),
    from: z.iso.datetime({ offset: true }).optional().catch(undefined),
    to: z.iso.datetime({ offset: true }).optional().catch(undefined),
  }),
  // Superusers only (docs/behaviour.md, "The audit trail"): others are sent home.
  beforeLoad: async ({ context }) => {
    const me = await context.queryClient.ensureQueryData(currentUserQueryOptions());
    if (!me.is_superuser) throw redirect({ to: '/' });
  },
  component: AuditRoute,
});

function AuditRoute() {
  const { page, ...filters } = Route.useSearch();
  const navigate = Route.useNavigate();
  const change = (next: AuditFilters, nextPage: number) =>
    void navigate({ search: { ...next, page: nextPage > 1 ? nextPage : undefined } });
  return <AuditPage filters={filters} page={page ?? 1} onChange={change} />;
}
