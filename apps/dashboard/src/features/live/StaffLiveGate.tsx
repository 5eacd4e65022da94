import type { ReactNode } from 'react';
import { type LiveData, LiveGate } from './LiveGate';
import { type ReadAuth, ReadAuthProvider } from '../stream/read-auth';

export const STAFF_AUTH: ReadAuth = { kind: 'staff' };

/** A staff screen of one research (the live view, the monitor): read with the staff session. */
export function StaffLiveGate({
  researchId,
  children,
}: {
  researchId: string;
  children: (data: LiveData) => ReactNode;
}) {
  return (
    <ReadAuthProvider auth={STAFF_AUTH}>
      <LiveGate auth={STAFF_AUTH} researchId={researchId}>
        {children}
      </LiveGate>
    </ReadAuthProvider>
  );
}
