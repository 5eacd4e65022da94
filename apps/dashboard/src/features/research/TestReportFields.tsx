import { Fieldset, NumberInput, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { Controller, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../components/use-error-text';
import { REPORT_TEXT_MAX, type TestReportValues } from '../../lib/report-form';

/**
 * What the lab's test report states (EN 1363-1 §12), under `report` of a research form: the report's
 * number and date, the sponsor and the manufacturer, the specimen, its conditioning and fixing, the
 * exposed side, the ambient temperature and the pressure's measurement height, why the test ended and
 * any deviation from the method. The PDF report prints each one, a blank one as not given.
 */
export function TestReportFields({ readOnly = false }: { readOnly?: boolean }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const {
    control,
    register,
    formState: { errors },
  } = useFormContext<{ report: TestReportValues }>();
  const e = errors.report;
  const textProps = (key: keyof typeof REPORT_TEXT_MAX) => ({
    ...register(`report.${key}`),
    maxLength: REPORT_TEXT_MAX[key],
    readOnly,
    error: errorText(e?.[key]),
  });
  const area = { autosize: true, minRows: 2, maxRows: 10 } as const;
  const numberProps = (value: number | '', onChange: (v: number | '') => void) => ({
    value,
    onChange: (next: number | string) =>
      onChange(typeof next === 'number' ? next : next.trim() === '' ? '' : Number(next)),
    readOnly,
    hideControls: true,
  });

  return (
    <Fieldset legend={t('research.report.title')} variant="unstyled" data-testid="report-fields">
      <Stack gap="md" mt={4}>
        <Text size="xs" c="dimmed">
          {t('research.report.hint')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            {...textProps('report_number')}
            label={t('research.report.reportNumber')}
            placeholder={readOnly ? undefined : t('research.report.reportNumberPlaceholder')}
          />
          <TextInput
            {...register('report.report_date')}
            type="date"
            label={t('research.report.reportDate')}
            readOnly={readOnly}
            error={errorText(e?.report_date)}
          />
          <TextInput {...textProps('sponsor')} label={t('research.report.sponsor')} />
          <TextInput {...textProps('manufacturer')} label={t('research.report.manufacturer')} />
        </SimpleGrid>
        <Textarea
          {...textProps('specimen_description')}
          {...area}
          minRows={3}
          maxRows={14}
          label={t('research.report.specimenDescription')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Textarea {...textProps('conditioning')} {...area} label={t('research.report.conditioning')} />
          <Textarea
            {...textProps('supporting_construction')}
            {...area}
            label={t('research.report.supportingConstruction')}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          <TextInput {...textProps('exposed_side')} label={t('research.report.exposedSide')} />
          <Controller
            control={control}
            name="report.ambient_temperature_c"
            render={({ field }) => (
              <NumberInput
                label={t('research.report.ambientTemperature')}
                suffix=" °C"
                {...numberProps(field.value, field.onChange)}
                onBlur={field.onBlur}
                error={errorText(e?.ambient_temperature_c)}
                data-testid="report-ambient"
              />
            )}
          />
          <Controller
            control={control}
            name="report.pressure_height_mm"
            render={({ field }) => (
              <NumberInput
                label={t('research.report.pressureHeight')}
                suffix=" mm"
                min={0}
                {...numberProps(field.value, field.onChange)}
                onBlur={field.onBlur}
                error={errorText(e?.pressure_height_mm)}
                data-testid="report-pressure-height"
              />
            )}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Textarea {...textProps('end_reason')} {...area} label={t('research.report.endReason')} />
          <Textarea {...textProps('deviations')} {...area} label={t('research.report.deviations')} />
        </SimpleGrid>
      </Stack>
    </Fieldset>
  );
}
