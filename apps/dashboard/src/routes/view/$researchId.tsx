import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { PublicLiveView } from '../../features/live-view/PublicLiveView';

// The public client live view: the invitation link's code opens it (docs/behaviour.md §2).
export const Route = createFileRoute('/view/$researchId')({
  validateSearch: z.object({ code: z.string().optional().catch(undefined) }),
  component: PublicViewRoute,
});

function PublicViewRoute() {
  const { researchId } = Route.useParams();
  const { code } = Route.useSearch();
  return <PublicLiveView researchId={researchId} code={code ?? ''} />;
}
