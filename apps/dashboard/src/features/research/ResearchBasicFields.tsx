import { Checkbox, Fieldset, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../components/use-error-text';
import type { ResearchBasicValues } from '../../lib/validation';
import { ProfileFields } from '../criteria/ProfileFields';
import { FurnaceSelect } from './FurnaceSelect';
import { TestReportFields } from './TestReportFields';

/**
 * Name, start, end, the three measurement flags, the test profile, whether clients see the
 * classification and what the test report states: the create form and the edit page's first section.
 * Read-only, the dates are shown as the list shows them (Polish format, Europe/Warsaw) when `shownDates`
 * is given.
 */
export function ResearchBasicFields({
  readOnly = false,
  shownDates,
  fillProfileFromFurnace = false,
}: {
  readOnly?: boolean;
  shownDates?: { start: string; end: string };
  /** The create form: picking a furnace fills the profile with its defaults. */
  fillProfileFromFurnace?: boolean;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const {
    register,
    formState: { errors },
  } = useFormContext<ResearchBasicValues>();

  return (
    <Stack gap="md">
      <TextInput
        {...register('name')}
        label={t('research.nameLabel')}
        error={errorText(errors.name)}
        readOnly={readOnly}
        required={!readOnly}
      />
      {readOnly && shownDates ? (
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <TextInput label={t('research.startAt')} value={shownDates.start} readOnly />
          <TextInput label={t('research.endAt')} value={shownDates.end} readOnly />
        </SimpleGrid>
      ) : (
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <TextInput
            {...register('start_at')}
            type="datetime-local"
            label={t('research.startAt')}
            error={errorText(errors.start_at)}
            readOnly={readOnly}
            required={!readOnly}
          />
          <TextInput
            {...register('end_at')}
            type="datetime-local"
            label={t('research.endAt')}
            error={errorText(errors.end_at)}
            readOnly={readOnly}
            required={!readOnly}
          />
        </SimpleGrid>
      )}
      <Fieldset legend={t('research.measurements')} variant="unstyled" disabled={readOnly}>
        <Group gap="lg" mt={4}>
          <Checkbox {...register('is_radiance')} label={t('research.isRadiance')} />
          <Checkbox {...register('is_furnance')} label={t('research.isFurnance')} />
          <Checkbox {...register('is_pressure')} label={t('research.isPressure')} />
        </Group>
      </Fieldset>
      <FurnaceSelect readOnly={readOnly} fillProfile={fillProfileFromFurnace} />
      <ProfileFields readOnly={readOnly} />
      <Checkbox
        {...register('classification_to_clients')}
        label={t('research.classificationToClients')}
        description={t('research.classificationToClientsHint')}
        disabled={readOnly}
      />
      <TestReportFields readOnly={readOnly} />
    </Stack>
  );
}
