import { zodResolver } from '@hookform/resolvers/zod';
import { ActionIcon, Anchor, Button, Group, Paper, Skeleton, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconExternalLink, IconLink, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { researchKeys } from '../../../api/keys';
import { addResearchUrl, deleteResearchUrl, researchUrlsQueryOptions } from '../../../api/research';
import type { ResearchUrl } from '../../../api/research-types';
import { confirmDestructive } from '../../../components/confirm';
import { Section } from '../../../components/Section';
import { FrozenControls } from '../../../components/frozen';
import { useErrorText } from '../../../components/use-error-text';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { addUrlSchema, type AddUrlValues } from '../../../lib/validation';

/** Stream links: the list with delete, and an add row. */
/** `frozen`: why the links cannot be changed now (an approved test), or null. */
export function UrlsSection({ researchId, frozen = null }: { researchId: string; frozen?: string | null }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: urls, isPending } = useQuery(researchUrlsQueryOptions(researchId));
  const invalidate = () => queryClient.invalidateQueries({ queryKey: researchKeys.urls(researchId) });

  const remove = useMutation({
    mutationFn: (url: ResearchUrl) => deleteResearchUrl(url.id),
    onSuccess: () => notifySuccess(t('research.urlDeleted')),
    onError: (error) => notifyError(error, t('research.urlDeleteError')),
    onSettled: invalidate,
  });

  const askDelete = (url: ResearchUrl) =>
    confirmDestructive({
      title: t('research.urlDeleteTitle'),
      text: t('research.urlDeleteText', { url: url.url }),
      confirmLabel: t('common.delete'),
      cancelLabel: t('common.cancel'),
      onConfirm: () => remove.mutate(url),
    });

  return (
    <Section title={t('research.links')}>
      {isPending ? <Skeleton height={40} /> : null}
      {urls?.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('research.noLinks')}
        </Text>
      ) : null}
      {urls?.map((url) => (
        <Paper key={url.id} withBorder radius="md" px="sm" py={6} data-testid="url-row">
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Group gap={8} wrap="nowrap" style={{ minWidth: 0 }}>
              <IconLink size={16} aria-hidden style={{ flexShrink: 0 }} />
              <Anchor
                href={url.url}
                target="_blank"
                rel="noreferrer"
                size="sm"
                style={{ overflowWrap: 'anywhere' }}
                title={t('research.openLink')}
              >
                {url.url}
                <IconExternalLink size={12} aria-hidden style={{ marginLeft: 4, verticalAlign: 'middle' }} />
              </Anchor>
            </Group>
            <Tooltip label={t('research.urlDeleteTitle')}>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`${t('research.urlDeleteTitle')}: ${url.url}`}
                onClick={() => askDelete(url)}
                disabled={frozen !== null}
              >
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Paper>
      ))}
      <FrozenControls reason={frozen}>
        <AddUrlForm researchId={researchId} onAdded={invalidate} />
      </FrozenControls>
    </Section>
  );
}

export function AddUrlForm({ researchId, onAdded }: { researchId: string; onAdded: () => Promise<void> }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isValid, isSubmitting },
  } = useForm({ mode: 'onTouched', resolver: zodResolver(addUrlSchema), defaultValues: { url: '' } });

  const add = useMutation({
    mutationFn: (values: AddUrlValues) => addResearchUrl(researchId, values.url.trim()),
    onSuccess: () => {
      reset();
      notifySuccess(t('research.urlAdded'));
    },
    onError: (error) => notifyError(error, t('research.urlAddError')),
    onSettled: onAdded,
  });

  return (
    <form
      onSubmit={handleSubmit((values) =>
        add.mutateAsync(values).then(
          () => undefined,
          () => undefined,
        ),
      )}
      noValidate
    >
      <Stack gap={4} mt="xs">
        <Group align="flex-start" gap="xs" wrap="nowrap">
          <TextInput
            {...register('url')}
            aria-label={t('research.newLink')}
            placeholder={t('research.newLink')}
            type="url"
            leftSection={<IconLink size={16} aria-hidden />}
            error={errorText(errors.url)}
            style={{ flex: 1 }}
          />
          <Button
            type="submit"
            leftSection={<IconPlus size={16} aria-hidden />}
            disabled={!isValid || isSubmitting}
            loading={isSubmitting}
          >
            {t('common.add')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
