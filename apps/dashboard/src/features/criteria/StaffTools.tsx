import type { ObservationDto, ThermoExclusionDto } from '@furnace/api-client';
import { Paper, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ReadAuth } from '../stream/read-auth';
import { FrozenControls } from '../../components/frozen';
import { ExclusionControls } from './Exclusions';
import { ObservationControls } from './Observations';

export interface StaffToolsProps {
  auth: ReadAuth;
  researchId: string;
  observations: readonly ObservationDto[];
  exclusions: readonly ThermoExclusionDto[];
  thermocouples: readonly { thermo_id: number; name: string }[];
  now: () => number | null;
  /** Why the controls are disabled (an approved test), or null. */
  frozen: string | null;
}

/**
 * Staff during the test, below the live view: observations with one click and thermocouple
 * exclusions. A chunk of its own (default export for React.lazy): a client's live view never loads it.
 */
export default function StaffTools(props: StaffToolsProps) {
  const { t } = useTranslation('criteria');
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      <Paper withBorder radius="md" p="md" component="section" aria-label={t('observation.title')}>
        <Text fw={700} size="sm" mb="xs">
          {t('observation.title')}
        </Text>
        <FrozenControls reason={props.frozen}>
          <ObservationControls auth={props.auth} researchId={props.researchId} observations={props.observations} />
        </FrozenControls>
      </Paper>
      <Paper withBorder radius="md" p="md" component="section" aria-label={t('exclusion.title')}>
        <Text fw={700} size="sm" mb="xs">
          {t('exclusion.title')}
        </Text>
        <FrozenControls reason={props.frozen}>
          <ExclusionControls
            auth={props.auth}
            researchId={props.researchId}
            exclusions={props.exclusions}
            thermocouples={props.thermocouples}
            now={props.now}
          />
        </FrozenControls>
      </Paper>
    </SimpleGrid>
  );
}
