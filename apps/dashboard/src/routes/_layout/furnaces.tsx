import { createFileRoute, redirect } from '@tanstack/react-router';
import { currentUserQueryOptions } from '../../api/users';
import { FurnacesPage } from '../../features/furnaces/FurnacesPage';

export const Route = createFileRoute('/_layout/furnaces')({
  // Superusers only (docs/behaviour.md §15): others are sent home.
  beforeLoad: async ({ context }) => {
    const me = await context.queryClient.ensureQueryData(currentUserQueryOptions());
    if (!me.is_superuser) throw redirect({ to: '/' });
  },
  component: FurnacesPage,
});
