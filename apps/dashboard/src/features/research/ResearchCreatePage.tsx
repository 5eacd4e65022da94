import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { researchKeys } from '../../api/keys';
import { addResearchEmail, addResearchUrl, createResearch, uploadThermoConfig } from '../../api/research';
import { PageHeader } from '../../components/PageHeader';
import { notifyError, notifySuccess } from '../../lib/notify';
import type { ResearchCreateValues } from '../../lib/validation';
import { runCreateFlow, type CreateStepFailure } from './create-flow';
import { ResearchCreateForm } from './ResearchCreateForm';
import { furnaceRefusal } from './furnace-refusal';

const STEP_ERRORS = {
  url: 'research.urlAddError',
  config: 'research.configAddError',
  email: 'research.emailAddError',
} as const satisfies Record<CreateStepFailure, string>;

export function ResearchCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);

  const create = useMutation({
    mutationFn: (values: ResearchCreateValues) =>
      runCreateFlow(
        values,
        { createResearch, addUrl: addResearchUrl, uploadConfig: uploadThermoConfig, addEmail: addResearchEmail },
        { onProgress: setProgress, onStepError: (step, error) => notifyError(error, t(STEP_ERRORS[step])) },
      ),
    onSuccess: () => notifySuccess(t('research.created')),
    onError: (error) => notifyError(error, t('research.createError')),
    onSettled: () => {
      setProgress(null);
      return queryClient.invalidateQueries({ queryKey: researchKeys.all });
    },
  });

  const submit = async (values: ResearchCreateValues) => {
    try {
      const research = await create.mutateAsync(values);
      void navigate({ to: '/research/$researchId/edit', params: { researchId: research.id } });
      return true;
    } catch (error) {
      return furnaceRefusal(error, values.furnace_id) ?? false;
    }
  };

  return (
    <>
      <PageHeader title={t('research.createTitle')} />
      <ResearchCreateForm onSubmit={submit} progress={progress} />
    </>
  );
}
