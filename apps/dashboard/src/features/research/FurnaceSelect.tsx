import { isDoorStandard } from '@furnace/criteria';
import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Controller, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { furnacesQueryOptions } from '../../api/furnaces';
import { useErrorText } from '../../components/use-error-text';
import type { ResearchBasicValues } from '../../lib/validation';

const NONE = '';

/**
 * The furnace a test is scheduled on, or none (docs/behaviour.md §15). On the create form a furnace picked fills
 * the profile with its defaults — what the API gives a new test for the fields its body leaves out — which the
 * user may then change. A refusal of the furnace's schedule (409) is shown under it.
 */
export function FurnaceSelect({ readOnly, fillProfile }: { readOnly: boolean; fillProfile: boolean }) {
  const { t } = useTranslation('lab');
  const errorText = useErrorText();
  const { data: furnaces } = useQuery(furnacesQueryOptions());
  const {
    control,
    setValue,
    formState: { errors },
  } = useFormContext<ResearchBasicValues>();

  return (
    <Controller
      control={control}
      name="furnace_id"
      render={({ field }) => {
        const current = furnaces?.find((f) => f.id === field.value);
        return (
          <Select
            label={t('research.furnace')}
            description={fillProfile ? t('research.furnaceHint') : undefined}
            data={[
              { value: NONE, label: t('research.furnaceNone') },
              ...(furnaces ?? []).map((f) => ({ value: f.id, label: `${f.name} (${f.code})` })),
              // A furnace the list has not loaded yet still shows by its id rather than as nothing.
              ...(field.value && !current && furnaces === undefined ? [{ value: field.value, label: '…' }] : []),
            ]}
            value={field.value ?? NONE}
            onChange={(value) => {
              const id = value === null || value === NONE ? null : value;
              field.onChange(id);
              const furnace = furnaces?.find((f) => f.id === id);
              if (!fillProfile || !furnace) return;
              const dirty = { shouldDirty: true, shouldValidate: true };
              setValue('profile.standard', furnace.standard, dirty);
              setValue('profile.insulation', isDoorStandard(furnace.standard) ? 'I2' : null, dirty);
              setValue('profile.heating_curve', furnace.heating_curve, dirty);
              setValue('profile.pressure_target_pa', furnace.pressure_target_pa ?? '', dirty);
              setValue('profile.pressure_tolerance_pa', furnace.pressure_tolerance_pa ?? '', dirty);
            }}
            onBlur={field.onBlur}
            allowDeselect={false}
            readOnly={readOnly}
            error={errorText(errors.furnace_id)}
            data-testid="research-furnace"
          />
        );
      }}
    />
  );
}
