import { createFileRoute, redirect } from '@tanstack/react-router';
import { z } from 'zod';
import { currentUserQueryOptions } from '../../api/users';
import { AdminPage } from '../../features/users/AdminPage';

export const Route = createFileRoute('/_layout/admin')({
  validateSearch: z.object({ page: z.number().int().min(1).optional().catch(undefined) }),
  // Superusers only (docs/behaviour.md §6): others are sent home.
  beforeLoad: async ({ context }) => {
    const me = await context.queryClient.ensureQueryData(currentUserQueryOptions());
    if (!me.is_superuser) throw redirect({ to: '/' });
  },
  component: AdminRoute,
});

function AdminRoute() {
  const { page } = Route.useSearch();
  return <AdminPage page={page ?? 1} />;
}
