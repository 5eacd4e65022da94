import { type TestStandard } from '@furnace/contracts';
import { HEATING_CURVE_IDS, isDoorStandard, TEST_STANDARD_IDS } from '@furnace/criteria';
import { Fieldset, NumberInput, SegmentedControl, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../components/use-error-text';
import type { ProfileValues } from '../../lib/profile-form';

/**
 * The test profile fields of a research form (under `profile`): standard, insulation class (door
 * standards only), heating curve, criteria basis, planned duration, pressure target and tolerance.
 */
export function ProfileFields({ readOnly = false }: { readOnly?: boolean }) {
  const { t } = useTranslation('criteria');
  const errorText = useErrorText();
  const {
    control,
    setValue,
    formState: { errors },
  } = useFormContext<{ profile: ProfileValues }>();
  const standard = useWatch({ control, name: 'profile.standard' });
  const door = isDoorStandard(standard);
  const numberProps = (value: number | '', onChange: (v: number | '') => void) => ({
    value,
    onChange: (next: number | string) =>
      onChange(typeof next === 'number' ? next : next.trim() === '' ? '' : Number(next)),
    readOnly,
    hideControls: readOnly,
  });

  return (
    <Fieldset legend={t('profile.title')} variant="unstyled" data-testid="profile-fields">
      <Stack gap="md" mt={4}>
        <SimpleGrid cols={{ base: 1, sm: door ? 3 : 2 }} spacing="md">
          <Controller
            control={control}
            name="profile.standard"
            render={({ field }) => (
              <Select
                label={t('profile.standard')}
                data={TEST_STANDARD_IDS.map((id) => ({ value: id, label: t(`standard.${id}`) }))}
                value={field.value}
                onChange={(value) => {
                  if (!value) return;
                  field.onChange(value);
                  // A door standard needs a class (I2 by default); the others have none.
                  setValue('profile.insulation', isDoorStandard(value as TestStandard) ? 'I2' : null, {
                    shouldDirty: true,
                  });
                }}
                allowDeselect={false}
                readOnly={readOnly}
                data-testid="profile-standard"
              />
            )}
          />
          {door ? (
            <Controller
              control={control}
              name="profile.insulation"
              render={({ field }) => (
                <Select
                  label={t('profile.insulation')}
                  description={t('profile.insulationBoth')}
                  data={['I1', 'I2']}
                  value={field.value ?? 'I2'}
                  onChange={(value) => value && field.onChange(value)}
                  allowDeselect={false}
                  readOnly={readOnly}
                  data-testid="profile-insulation"
                />
              )}
            />
          ) : null}
          <Controller
            control={control}
            name="profile.heating_curve"
            render={({ field }) => (
              <Select
                label={t('profile.heatingCurve')}
                data={HEATING_CURVE_IDS.map((id) => ({ value: id, label: t(`curve.${id}`) }))}
                value={field.value}
                onChange={(value) => value && field.onChange(value)}
                allowDeselect={false}
                readOnly={readOnly}
                data-testid="profile-curve"
              />
            )}
          />
        </SimpleGrid>
        <Controller
          control={control}
          name="profile.criteria_basis"
          render={({ field }) => (
            <Stack gap={4}>
              <Text size="sm" fw={500} id="profile-basis-label">
                {t('profile.basis')}
              </Text>
              <SegmentedControl
                aria-labelledby="profile-basis-label"
                data={[
                  { value: 'rise', label: t('profile.basisRise') },
                  { value: 'absolute', label: t('profile.basisAbsolute') },
                ]}
                value={field.value}
                onChange={field.onChange}
                readOnly={readOnly}
                data-testid="profile-basis"
                fullWidth
              />
            </Stack>
          )}
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          <Controller
            control={control}
            name="profile.planned_duration_min"
            render={({ field }) => (
              <NumberInput
                label={t('profile.plannedDuration')}
                suffix={` ${t('profile.minutes')}`}
                allowDecimal={false}
                min={1}
                {...numberProps(field.value, field.onChange)}
                onBlur={field.onBlur}
                error={errorText(errors.profile?.planned_duration_min)}
                data-testid="profile-duration"
              />
            )}
          />
          <Controller
            control={control}
            name="profile.pressure_target_pa"
            render={({ field }) => (
              <NumberInput
                label={t('profile.pressureTarget')}
                suffix={` ${t('profile.pa')}`}
                {...numberProps(field.value, field.onChange)}
                onBlur={field.onBlur}
                error={errorText(errors.profile?.pressure_target_pa)}
                data-testid="profile-pressure-target"
              />
            )}
          />
          <Controller
            control={control}
            name="profile.pressure_tolerance_pa"
            render={({ field }) => (
              <NumberInput
                label={t('profile.pressureTolerance')}
                prefix="± "
                suffix={` ${t('profile.pa')}`}
                min={0}
                {...numberProps(field.value, field.onChange)}
                onBlur={field.onBlur}
                error={errorText(errors.profile?.pressure_tolerance_pa)}
                data-testid="profile-pressure-tolerance"
              />
            )}
          />
        </SimpleGrid>
      </Stack>
    </Fieldset>
  );
}
