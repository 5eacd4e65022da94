import { IconDeviceDesktop } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../components/ButtonLink';
import { type LiveData, LiveGate } from './LiveGate';
import { LiveScreen } from './LiveScreen';
import { type ReadAuth, ReadAuthProvider } from './read-auth';

export const STAFF_AUTH: ReadAuth = { kind: 'staff' };

/** A staff screen of one research (the live view, the monitor): read with the staff session. */
export function StaffLiveGate({ researchId, children }: { researchId: string; children: (data: LiveData) => ReactNode }) {
  return (
    <ReadAuthProvider auth={STAFF_AUTH}>
      <LiveGate auth={STAFF_AUTH} researchId={researchId}>
        {children}
      </LiveGate>
    </ReadAuthProvider>
  );
}

/** The staff live view /research/{researchId}/view: the same screen, read with the staff session. */
export function StaffLiveView({ researchId }: { researchId: string }) {
  const { t } = useTranslation('live');
  return (
    <StaffLiveGate researchId={researchId}>
      {(data) => (
          <LiveScreen
            data={data}
            actions={
              <ButtonLink
                to="/research/$researchId/monitor"
                params={{ researchId }}
                variant="light"
                leftSection={<IconDeviceDesktop size={18} aria-hidden />}
              >
                {t('view.openMonitor')}
              </ButtonLink>
            }
          />
      )}
    </StaffLiveGate>
  );
}
