import { IconDeviceDesktop } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../components/ButtonLink';
import { StaffLiveGate } from '../live/StaffLiveGate';
import { LiveScreen } from './LiveScreen';

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
