import { createFileRoute } from '@tanstack/react-router';
import { LabPage } from '../../features/lab/LabPage';

/** The lab overview, for staff (the layout requires a signed-in user; docs/behaviour.md §18). */
export const Route = createFileRoute('/_layout/lab')({
  component: LabPage,
});
