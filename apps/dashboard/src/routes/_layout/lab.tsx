import { createFileRoute } from '@tanstack/react-router';
import { LabPage } from '../../features/lab/LabPage';

/**
 * The lab overview, for staff (the layout requires a signed-in user; docs/behaviour.md §18). It uses the whole
 * width: on a wall display, four tiles a row.
 */
export const Route = createFileRoute('/_layout/lab')({
  staticData: { fullWidth: true },
  component: LabPage,
});
