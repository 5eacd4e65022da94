import { createFileRoute } from '@tanstack/react-router';
import { FurnacesPage } from '../../features/furnaces/FurnacesPage';

/**
 * The lab's furnaces, for staff (the layout requires a signed-in user): they read the furnaces and attach their
 * unassigned readings; the superusers' controls are shown to superusers only (docs/behaviour.md §15, §18).
 */
export const Route = createFileRoute('/_layout/furnaces')({
  component: FurnacesPage,
});
