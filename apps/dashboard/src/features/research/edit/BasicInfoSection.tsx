import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { researchKeys } from '../../../api/keys';
import { updateResearch } from '../../../api/research';
import type { Research, ResearchUpdate } from '../../../api/research-types';
import { datetimeLocalToIso, formatDateTime, isoToDatetimeLocal } from '../../../lib/dates';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { settle } from '../../../lib/settle';
import { researchBasicSchema, type ResearchBasicValues } from '../../../lib/validation';
import { Section } from '../../../components/Section';
import { ResearchBasicFields } from '../ResearchBasicFields';
import { furnaceRefusal } from '../furnace-refusal';
import { toProfileValues, toProfileBody } from '../../../lib/profile-form';
import { toTestReportBody, toTestReportValues } from '../../../lib/report-form';

function toBasicValues(research: Research): ResearchBasicValues {
  return {
    name: research.name,
    start_at: isoToDatetimeLocal(research.start_at),
    end_at: isoToDatetimeLocal(research.end_at),
    is_radiance: research.is_radiance,
    is_furnance: research.is_furnance,
    is_pressure: research.is_pressure,
    furnace_id: research.furnace_id,
    profile: toProfileValues(research),
    classification_to_clients: research.classification_to_clients,
    report: toTestReportValues(research),
  };
}

function toResearchUpdate(values: ResearchBasicValues): ResearchUpdate {
  return {
    name: values.name.trim(),
    start_at: datetimeLocalToIso(values.start_at) ?? values.start_at,
    end_at: datetimeLocalToIso(values.end_at) ?? values.end_at,
    is_radiance: values.is_radiance,
    is_furnance: values.is_furnance,
    is_pressure: values.is_pressure,
    furnace_id: values.furnace_id,
    ...toProfileBody(values.profile),
    classification_to_clients: values.classification_to_clients,
    ...toTestReportBody(values.report),
  };
}

/** Read-only until 'Edytuj'; then 'Anuluj' and 'Zapisz'; read-only again after a successful save. `frozen`: why 'Edytuj' is disabled. */
export function BasicInfoSection({ research, frozen = null }: { research: Research; frozen?: string | null }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const form = useForm({
    mode: 'onTouched',
    resolver: zodResolver(researchBasicSchema),
    defaultValues: toBasicValues(research),
  });
  const {
    handleSubmit,
    reset,
    setError,
    formState: { isValid, isSubmitting, isDirty },
  } = form;

  // Another tab (or the live UPDATE) changed the research: show the new values when not editing.
  useEffect(() => {
    if (!editing) reset(toBasicValues(research));
  }, [research, editing, reset]);

  const update = useMutation({
    mutationFn: (values: ResearchBasicValues) => updateResearch(research.id, toResearchUpdate(values)),
    onSuccess: (saved) => {
      queryClient.setQueryData(researchKeys.detail(research.id), saved);
      reset(toBasicValues(saved));
      setEditing(false);
      notifySuccess(t('research.updated'));
    },
    onError: (error, values) => {
      notifyError(error, t('research.updateError'));
      const refusal = furnaceRefusal(error, values.furnace_id);
      if (refusal) setError(refusal.field, { type: 'server', message: refusal.message });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: researchKeys.all }),
  });

  const cancel = () => {
    reset(toBasicValues(research));
    setEditing(false);
  };

  return (
    <Section
      title={t('research.basicInfo')}
      action={
        editing ? null : (
          <Button
            variant="light"
            size="xs"
            leftSection={<IconPencil size={14} aria-hidden />}
            onClick={() => setEditing(true)}
            disabled={frozen !== null}
            title={frozen ?? undefined}
          >
            {t('common.edit')}
          </Button>
        )
      }
    >
      <FormProvider {...form}>
        <form
          onSubmit={handleSubmit((values) => settle(update.mutateAsync(values)))}
          noValidate
          aria-label={t('research.basicInfo')}
        >
          <ResearchBasicFields
            readOnly={!editing}
            shownDates={{ start: formatDateTime(research.start_at), end: formatDateTime(research.end_at) }}
          />
          {editing ? (
            <Group justify="flex-end" mt="md">
              <Button variant="default" onClick={cancel} disabled={isSubmitting}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" disabled={!isValid || !isDirty || isSubmitting} loading={isSubmitting}>
                {t('common.save')}
              </Button>
            </Group>
          ) : null}
        </form>
      </FormProvider>
    </Section>
  );
}
