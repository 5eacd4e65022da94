import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  Divider,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  TagsInput,
  TextInput,
} from '@mantine/core';
import { FURNACE_CODE_PATTERN } from '@furnace/contracts';
import { HEATING_CURVE_IDS, TEST_STANDARD_IDS } from '@furnace/criteria';
import type { FurnaceCreateDtoWritable } from '@furnace/api-client';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { Furnace } from '../../api/furnaces';
import { PasswordField } from '../../components/PasswordField';

/*
 * A furnace's fields as the superusers' page edits them (docs/behaviour.md §15); the messages are keys of the
 * "lab" namespace. The API checks the same rules and answers a 422 naming the field.
 */
const optional = (min: number, max: number, message: string) =>
  z.union([z.literal(''), z.number(message).min(min, message).max(max, message)]);

const furnaceFormSchema = z.object({
  name: z.string().trim().min(1, 'furnaces.nameRequired').max(255, 'furnaces.nameRequired'),
  code: z.string().regex(FURNACE_CODE_PATTERN, 'furnaces.codeInvalid'),
  scan_period_s: z
    .number('furnaces.scanPeriodInvalid')
    .min(0.01, 'furnaces.scanPeriodInvalid')
    .max(3600, 'furnaces.scanPeriodInvalid'),
  standard: z.enum(TEST_STANDARD_IDS),
  heating_curve: z.enum(HEATING_CURVE_IDS),
  pressure_target_pa: optional(-1000, 1000, 'furnaces.pressureInvalid'),
  pressure_tolerance_pa: optional(0, 1000, 'furnaces.toleranceInvalid'),
  // Who is told of the alarms of a test on the furnace (docs/behaviour.md §17).
  watch_emails: z.array(z.email('furnaces.watchInvalid')).max(50, 'furnaces.watchInvalid'),
  webhook_url: z.union([
    z.literal(''),
    z.url({ protocol: /^https?$/, error: 'furnaces.webhookUrlInvalid' }).max(2000, 'furnaces.webhookUrlInvalid'),
  ]),
  /** Empty: the secret stays as it is (it is never shown back). */
  webhook_secret: z.union([
    z.literal(''),
    z.string().min(16, 'furnaces.webhookSecretInvalid').max(255, 'furnaces.webhookSecretInvalid'),
  ]),
});
export type FurnaceFormValues = z.input<typeof furnaceFormSchema>;

const orEmpty = (value: number | null | undefined): number | '' => (value === null || value === undefined ? '' : value);
const orNull = (value: number | ''): number | null => (value === '' ? null : value);

function furnaceFormDefaults(furnace?: Furnace): FurnaceFormValues {
  return {
    name: furnace?.name ?? '',
    code: furnace?.code ?? '',
    scan_period_s: furnace?.scan_period_s ?? 1,
    standard: furnace?.standard ?? 'EN_1363_1',
    heating_curve: furnace?.heating_curve ?? 'iso834',
    pressure_target_pa: orEmpty(furnace?.pressure_target_pa),
    pressure_tolerance_pa: orEmpty(furnace?.pressure_tolerance_pa),
    watch_emails: furnace?.watch_emails ?? [],
    webhook_url: furnace?.webhook_url ?? '',
    webhook_secret: '',
  };
}

/** The create body; a change sends the same fields (PATCH takes any of them). */
export function toFurnaceBody(values: FurnaceFormValues): FurnaceCreateDtoWritable {
  return {
    name: values.name.trim(),
    code: values.code,
    scan_period_s: values.scan_period_s,
    standard: values.standard,
    heating_curve: values.heating_curve,
    pressure_target_pa: orNull(values.pressure_target_pa),
    pressure_tolerance_pa: orNull(values.pressure_tolerance_pa),
    watch_emails: values.watch_emails,
    webhook_url: values.webhook_url === '' ? null : values.webhook_url,
    ...(values.webhook_secret === '' ? {} : { webhook_secret: values.webhook_secret }),
  };
}

interface FurnaceFormProps {
  furnace?: Furnace;
  onSubmit: (values: FurnaceFormValues) => Promise<boolean>;
  onCancel: () => void;
}

export function FurnaceForm({ furnace, onSubmit, onCancel }: FurnaceFormProps) {
  const { t } = useTranslation('lab');
  const { t: tc } = useTranslation('criteria');
  const {
    register,
    handleSubmit,
    control,
    watch,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<FurnaceFormValues>({
    mode: 'onTouched',
    resolver: zodResolver(furnaceFormSchema),
    defaultValues: furnaceFormDefaults(furnace),
  });
  // The schema's messages are keys of this namespace.
  const error = (e: { message?: string } | undefined) =>
    e?.message ? t(e.message as 'furnaces.codeInvalid') : undefined;
  // A furnace whose DAQ has a credential: its code names the DAQ's topic and username (docs/behaviour.md §16).
  const code = watch('code');
  const codeChangesDaq = furnace?.daq_credential != null && code !== furnace.code && FURNACE_CODE_PATTERN.test(code);
  const number = (value: number | '', onChange: (v: number | '') => void) => ({
    value,
    onChange: (next: number | string) =>
      onChange(typeof next === 'number' ? next : next.trim() === '' ? '' : Number(next)),
  });

  return (
    <form onSubmit={handleSubmit(async (values) => void (await onSubmit(values)))} noValidate>
      <Stack gap="md">
        <TextInput
          {...register('name')}
          label={t('furnaces.name')}
          error={error(errors.name)}
          required
          data-autofocus
        />
        <TextInput
          {...register('code')}
          label={t('furnaces.code')}
          description={t('furnaces.codeHint')}
          error={error(errors.code)}
          autoComplete="off"
          required
        />
        {codeChangesDaq ? (
          <Alert color="yellow" variant="light" data-testid="furnace-code-daq">
            {t('furnaces.codeChangeDaq', { code })}
          </Alert>
        ) : null}
        <Controller
          control={control}
          name="scan_period_s"
          render={({ field }) => (
            <NumberInput
              {...number(field.value, (v) => field.onChange(v === '' ? Number.NaN : v))}
              onBlur={field.onBlur}
              label={t('furnaces.scanPeriod')}
              rightSection={t('furnaces.seconds')}
              min={0.01}
              max={3600}
              decimalScale={3}
              error={error(errors.scan_period_s)}
              required
            />
          )}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <Controller
            control={control}
            name="standard"
            render={({ field }) => (
              <Select
                label={t('furnaces.standard')}
                data={TEST_STANDARD_IDS.map((id) => ({ value: id, label: tc(`standard.${id}`) }))}
                value={field.value}
                onChange={(value) => value && field.onChange(value)}
                allowDeselect={false}
              />
            )}
          />
          <Controller
            control={control}
            name="heating_curve"
            render={({ field }) => (
              <Select
                label={t('furnaces.heatingCurve')}
                data={HEATING_CURVE_IDS.map((id) => ({ value: id, label: tc(`curve.${id}`) }))}
                value={field.value}
                onChange={(value) => value && field.onChange(value)}
                allowDeselect={false}
              />
            )}
          />
          <Controller
            control={control}
            name="pressure_target_pa"
            render={({ field }) => (
              <NumberInput
                {...number(field.value, field.onChange)}
                onBlur={field.onBlur}
                label={t('furnaces.pressureTarget')}
                rightSection={t('furnaces.pa')}
                error={error(errors.pressure_target_pa)}
              />
            )}
          />
          <Controller
            control={control}
            name="pressure_tolerance_pa"
            render={({ field }) => (
              <NumberInput
                {...number(field.value, field.onChange)}
                onBlur={field.onBlur}
                label={t('furnaces.pressureTolerance')}
                rightSection={t('furnaces.pa')}
                min={0}
                error={error(errors.pressure_tolerance_pa)}
              />
            )}
          />
        </SimpleGrid>
        <Divider label={t('furnaces.alarmsSection')} labelPosition="left" />
        <Controller
          control={control}
          name="watch_emails"
          render={({ field }) => (
            <TagsInput
              value={field.value}
              onChange={(next) => field.onChange(next.map((e) => e.trim().toLowerCase()))}
              onBlur={field.onBlur}
              label={t('furnaces.watchEmails')}
              description={t('furnaces.watchEmailsHint')}
              splitChars={[',', ' ', ';']}
              clearable
              error={error(
                Array.isArray(errors.watch_emails) ? errors.watch_emails.find(Boolean) : errors.watch_emails,
              )}
            />
          )}
        />
        <TextInput
          {...register('webhook_url')}
          label={t('furnaces.webhookUrl')}
          description={t('furnaces.webhookUrlHint')}
          placeholder="https://"
          error={error(errors.webhook_url)}
          autoComplete="off"
        />
        <PasswordField
          {...register('webhook_secret')}
          label={t('furnaces.webhookSecret')}
          description={furnace?.webhook_secret_set ? t('furnaces.webhookSecretSet') : t('furnaces.webhookSecretHint')}
          error={error(errors.webhook_secret)}
          autoComplete="new-password"
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            {t('furnaces.cancel')}
          </Button>
          <Button type="submit" loading={isSubmitting} disabled={furnace !== undefined && !isDirty}>
            {t('furnaces.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
