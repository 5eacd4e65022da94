import { createFileRoute } from '@tanstack/react-router';
import { StaffLiveView } from '../../../../features/live-view/StaffLiveView';

// The staff live view: the same screen as the public one, read with the staff session.
export const Route = createFileRoute('/_layout/research/$researchId/view')({
  component: StaffViewRoute,
});

function StaffViewRoute() {
  const { researchId } = Route.useParams();
  return <StaffLiveView researchId={researchId} />;
}
