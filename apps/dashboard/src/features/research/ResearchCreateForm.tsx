import { zodResolver } from '@hookform/resolvers/zod';
import { ActionIcon, Button, Card, Group, Progress, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconLink, IconMail, IconPlus, IconTrash } from '@tabler/icons-react';
import type { MouseEvent, ReactNode } from 'react';
import { Controller, FormProvider, useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Section } from '../../components/Section';
import { useErrorText } from '../../components/use-error-text';
import { useLiveValidity } from '../../components/use-live-validity';
import { defaultResearchTimes } from '../../lib/dates';
import { researchCreateSchema, type ResearchCreateValues } from '../../lib/validation';
import { ResearchBasicFields } from './ResearchBasicFields';
import type { FieldRefusal } from './furnace-refusal';
import { ThermoFilesFields } from './ThermoFilesFields';
import { toProfileValues } from '../../lib/profile-form';
import { toTestReportValues } from '../../lib/report-form';

function emptyResearchForm(now: Date = new Date()): ResearchCreateValues {
  return {
    name: '',
    ...defaultResearchTimes(now),
    is_radiance: false,
    is_furnance: false,
    is_pressure: false,
    furnace_id: null,
    profile: toProfileValues(null),
    classification_to_clients: true,
    report: toTestReportValues(null),
    links: [],
    configs: [],
    emails: [],
  };
}

export interface ResearchCreateFormProps {
  /**
   * Resolves true when the research was created (the form then resets); a refusal that names a field (the furnace's
   * schedule) is shown on it.
   */
  onSubmit: (values: ResearchCreateValues) => Promise<boolean | FieldRefusal>;
  /** Upload progress of the photos and configs, 0–100; null when nothing is uploading. */
  progress: number | null;
}

export function ResearchCreateForm({ onSubmit, progress }: ResearchCreateFormProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const form = useForm({
    // Spec §5: validate on blur. 'onBlur' rather than 'onTouched' here: with field arrays, 'onTouched'
    // validates a row as soon as it is added, flagging it before the user has had a chance to fill it.
    mode: 'onBlur',
    resolver: zodResolver(researchCreateSchema),
    defaultValues: emptyResearchForm(),
  });
  const {
    control,
    register,
    handleSubmit,
    reset,
    setError,
    trigger,
    formState: { errors, isSubmitting },
  } = form;
  const isValid = useLiveValidity(form, researchCreateSchema);
  const links = useFieldArray({ control, name: 'links' });
  const configs = useFieldArray({ control, name: 'configs' });
  const emails = useFieldArray({ control, name: 'emails' });

  const submit = async (values: ResearchCreateValues) => {
    const result = await onSubmit(values);
    if (result === true) reset(emptyResearchForm());
    else if (result !== false)
      setError(result.field, { type: 'server', message: result.message }, { shouldFocus: true });
  };

  return (
    <FormProvider {...form}>
      <form onSubmit={handleSubmit(submit)} noValidate aria-label={t('research.createTitle')}>
        <Stack gap="lg">
          <Section title={t('research.basicInfo')}>
            <ResearchBasicFields fillProfileFromFurnace />
          </Section>

          <Section
            title={t('research.links')}
            action={<AddButton onClick={() => links.append({ url: '' })}>{t('research.addLink')}</AddButton>}
          >
            {links.fields.length === 0 ? <Empty text={t('research.noLinks')} /> : null}
            {links.fields.map((field, index) => (
              <TextInput
                key={field.id}
                {...register(`links.${index}.url`)}
                label={t('research.linkLabel', { n: index + 1 })}
                placeholder="https://"
                type="url"
                leftSection={<IconLink size={16} aria-hidden />}
                rightSection={
                  <RemoveButton
                    label={t('research.removeLink', { n: index + 1 })}
                    onClick={() => links.remove(index)}
                  />
                }
                rightSectionPointerEvents="all"
                error={errorText(errors.links?.[index]?.url)}
                required
              />
            ))}
          </Section>

          <Section
            title={t('research.configs')}
            action={
              <AddButton onClick={() => configs.append({ image: null, config: null, check: null })}>
                {t('research.addConfig')}
              </AddButton>
            }
          >
            {configs.fields.length === 0 ? <Empty text={t('research.noConfigs')} /> : null}
            {configs.fields.map((field, index) => (
              <Card key={field.id} withBorder radius="md" padding="sm">
                <Group justify="space-between" mb={6}>
                  <Text fw={600} size="sm">
                    {t('research.configEntry', { n: index + 1 })}
                  </Text>
                  <RemoveButton
                    label={t('research.removeConfig', { n: index + 1 })}
                    onClick={() => configs.remove(index)}
                  />
                </Group>
                <Controller
                  control={control}
                  name={`configs.${index}`}
                  render={({ field: pair }) => (
                    <ThermoFilesFields
                      index={index}
                      value={pair.value}
                      onChange={(next) => {
                        pair.onChange(next);
                        // The leaves, not `configs.${index}`: RHF sets no error for a resolver path under an object field.
                        void trigger([`configs.${index}.image`, `configs.${index}.config`]);
                      }}
                      onBlur={pair.onBlur}
                      errors={{
                        image: errorText(errors.configs?.[index]?.image),
                        config: errorText(errors.configs?.[index]?.config),
                      }}
                    />
                  )}
                />
              </Card>
            ))}
          </Section>

          <Section
            title={t('research.emails')}
            action={<AddButton onClick={() => emails.append({ email: '' })}>{t('research.addEmail')}</AddButton>}
          >
            {emails.fields.length === 0 ? <Empty text={t('research.noEmails')} /> : null}
            {emails.fields.map((field, index) => (
              <TextInput
                key={field.id}
                {...register(`emails.${index}.email`)}
                label={t('research.emailLabel', { n: index + 1 })}
                type="email"
                leftSection={<IconMail size={16} aria-hidden />}
                rightSection={
                  <RemoveButton
                    label={t('research.removeEmail', { n: index + 1 })}
                    onClick={() => emails.remove(index)}
                  />
                }
                rightSectionPointerEvents="all"
                error={errorText(errors.emails?.[index]?.email)}
                required
              />
            ))}
          </Section>

          {progress !== null ? (
            <Stack gap={4}>
              <Text size="sm">{t('research.uploading', { percent: Math.round(progress) })}</Text>
              <Progress
                value={progress}
                animated
                aria-label={t('research.uploading', { percent: Math.round(progress) })}
              />
            </Stack>
          ) : null}

          <Group justify="flex-end">
            <Button
              type="submit"
              size="md"
              disabled={!isValid || isSubmitting}
              loading={isSubmitting}
              w={{ base: '100%', xs: 'auto' }}
            >
              {t('research.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </FormProvider>
  );
}

function Empty({ text }: { text: string }) {
  return (
    <Text size="sm" c="dimmed">
      {text}
    </Text>
  );
}

/**
 * Keeps the focus where it is on press: a blur would validate the field being left, and an error
 * message appearing above would move this button away before the click lands.
 */
const keepFocus = (event: MouseEvent) => event.preventDefault();

function AddButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <Button
      variant="light"
      size="xs"
      leftSection={<IconPlus size={14} aria-hidden />}
      onMouseDown={keepFocus}
      onClick={onClick}
    >
      {children}
    </Button>
  );
}

function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Tooltip label={label}>
      <ActionIcon variant="subtle" color="red" aria-label={label} onMouseDown={keepFocus} onClick={onClick}>
        <IconTrash size={16} aria-hidden />
      </ActionIcon>
    </Tooltip>
  );
}
