import { createFileRoute } from '@tanstack/react-router';
import { requireLogin } from '../../../app/guards';
import { MonitorPage } from '../../../features/monitor/MonitorPage';

// The furnace monitor: full screen for the lab's wall display, outside the staff layout (no top bar).
export const Route = createFileRoute('/research/$researchId/monitor')({
  beforeLoad: requireLogin,
  component: MonitorRoute,
});

function MonitorRoute() {
  const { researchId } = Route.useParams();
  return <MonitorPage researchId={researchId} />;
}
