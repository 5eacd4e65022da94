import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Paper,
  Select,
  Skeleton,
  Text,
  TextInput,
  ThemeIcon,
  Tooltip,
} from '@mantine/core';
import { IconMail, IconMailCheck, IconMailX, IconPlus, IconSend, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { Language } from '@furnace/text';
import { isAuthError } from '../../../api/errors';
import { researchKeys } from '../../../api/keys';
import {
  addResearchEmail,
  deleteResearchEmail,
  researchEmailsQueryOptions,
  sendAllResearchEmails,
  sendResearchEmail,
} from '../../../api/research';
import type { ResearchEmail } from '../../../api/research-types';
import { Section } from '../../../components/Section';
import { useErrorText } from '../../../components/use-error-text';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { addEmailSchema, type AddEmailValues } from '../../../lib/validation';

/**
 * Client e-mails: sent/not-sent and the invitation's language per address, Send, 'Wyślij wszystkie', 'Dodaj' and
 * 'Dodaj i wyślij' (with the language chosen for the new address).
 */
export function EmailsSection({ researchId }: { researchId: string }) {
  const { t } = useTranslation();
  const languageName = useLanguageName();
  const queryClient = useQueryClient();
  const { data: emails, isPending } = useQuery(researchEmailsQueryOptions(researchId));
  const invalidate = () => queryClient.invalidateQueries({ queryKey: researchKeys.emails(researchId) });

  const send = useMutation({
    mutationFn: (email: ResearchEmail) => sendResearchEmail(email.id),
    onSuccess: () => notifySuccess(t('research.emailSent')),
    onError: (error) => notifyError(error, t('research.emailSendError')),
    onSettled: invalidate,
  });

  const sendAll = useMutation({
    mutationFn: () => sendAllResearchEmails(researchId),
    onSuccess: () => notifySuccess(t('research.emailsSent')),
    onError: (error) => notifyError(error, t('research.emailsSendError')),
    onSettled: invalidate,
  });

  const remove = useMutation({
    mutationFn: (email: ResearchEmail) => deleteResearchEmail(email.id),
    onSuccess: () => notifySuccess(t('research.emailDeleted')),
    onError: (error) => notifyError(error, t('research.emailDeleteError')),
    onSettled: invalidate,
  });

  const sending = (email: ResearchEmail) => send.isPending && send.variables?.id === email.id;

  return (
    <Section
      title={t('research.emails')}
      action={
        <Button
          size="xs"
          variant="light"
          leftSection={<IconSend size={14} aria-hidden />}
          onClick={() => sendAll.mutate()}
          loading={sendAll.isPending}
          disabled={!emails || emails.length === 0}
        >
          {t('research.sendAll')}
        </Button>
      }
    >
      {isPending ? <Skeleton height={40} /> : null}
      {emails?.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('research.noEmails')}
        </Text>
      ) : null}
      {emails?.map((email) => (
        <Paper key={email.id} withBorder radius="md" px="sm" py={6} data-testid="email-row" data-sent={email.is_sent}>
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Group gap={8} wrap="nowrap" style={{ minWidth: 0, flex: '1 1 140px' }}>
              <Tooltip label={email.is_sent ? t('research.sent') : t('research.notSent')}>
                <ThemeIcon
                  variant="light"
                  color={email.is_sent ? 'teal' : 'gray'}
                  radius="xl"
                  role="img"
                  aria-label={email.is_sent ? t('research.sent') : t('research.notSent')}
                  style={{ flexShrink: 0 }}
                >
                  {email.is_sent ? <IconMailCheck size={16} aria-hidden /> : <IconMailX size={16} aria-hidden />}
                </ThemeIcon>
              </Tooltip>
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {email.email}
              </Text>
              <Tooltip label={t('research.invitationLanguage')}>
                <Badge variant="light" color="gray" tt="none" style={{ flexShrink: 0 }} data-testid="email-lang">
                  {languageName(email.lang)}
                </Badge>
              </Tooltip>
            </Group>
            <Group gap={4} wrap="nowrap" ml="auto">
              <Button
                size="xs"
                variant="light"
                leftSection={<IconSend size={14} aria-hidden />}
                disabled={email.is_sent}
                loading={sending(email)}
                onClick={() => send.mutate(email)}
                aria-label={t('research.sendTo', { email: email.email })}
              >
                {t('research.send')}
              </Button>
              <Tooltip label={t('research.deleteEmail', { email: email.email })}>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('research.deleteEmail', { email: email.email })}
                  onClick={() => remove.mutate(email)}
                >
                  <IconTrash size={18} aria-hidden />
                </ActionIcon>
              </Tooltip>
            </Group>
          </Group>
        </Paper>
      ))}
      <AddEmailForm researchId={researchId} onChanged={invalidate} />
    </Section>
  );
}

/** A language by its own name ('Polski', 'English'), as the language switches show it. */
function useLanguageName() {
  const { t } = useTranslation();
  return (lang: string) => (lang === 'en' ? t('common.languageEn') : t('common.languagePl'));
}

export function AddEmailForm({ researchId, onChanged }: { researchId: string; onChanged: () => Promise<void> }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors, isValid, isSubmitting },
  } = useForm({
    mode: 'onTouched',
    resolver: zodResolver(addEmailSchema),
    defaultValues: { email: '', lang: 'pl' as Language },
  });

  const add = useMutation({
    mutationFn: async ({ values, andSend }: { values: AddEmailValues; andSend: boolean }) => {
      const record = await addResearchEmail(researchId, values.email.trim(), values.lang);
      notifySuccess(t('research.emailAdded'));
      reset();
      if (andSend) {
        try {
          await sendResearchEmail(record.id);
          notifySuccess(t('research.emailSent'));
        } catch (error) {
          if (isAuthError(error)) throw error;
          notifyError(error, t('research.emailSendError'));
        }
      }
      return record;
    },
    onError: (error) => notifyError(error, t('research.emailAddError')),
    onSettled: onChanged,
  });

  const submitWith = (andSend: boolean) =>
    handleSubmit((values) =>
      add.mutateAsync({ values, andSend }).then(
        () => undefined,
        () => undefined,
      ),
    );

  const busy = isSubmitting || add.isPending;
  return (
    <form onSubmit={submitWith(false)} noValidate>
      <Group align="flex-start" gap="xs" mt="xs">
        <TextInput
          {...register('email')}
          aria-label={t('research.newEmail')}
          placeholder={t('research.newEmail')}
          type="email"
          leftSection={<IconMail size={16} aria-hidden />}
          error={errorText(errors.email)}
          style={{ flex: '1 1 220px' }}
        />
        <Controller
          control={control}
          name="lang"
          render={({ field }) => (
            <Select
              aria-label={t('research.invitationLanguage')}
              data={[
                { value: 'pl', label: t('common.languagePl') },
                { value: 'en', label: t('common.languageEn') },
              ]}
              value={field.value}
              onChange={(value) => value && field.onChange(value)}
              allowDeselect={false}
              w={120}
              data-testid="email-lang-select"
            />
          )}
        />
        <Group gap="xs" wrap="nowrap">
          <Button
            type="submit"
            leftSection={<IconPlus size={16} aria-hidden />}
            disabled={!isValid || busy}
            loading={busy && !add.variables?.andSend}
          >
            {t('common.add')}
          </Button>
          <Button
            variant="light"
            leftSection={<IconSend size={16} aria-hidden />}
            disabled={!isValid || busy}
            loading={busy && add.variables?.andSend === true}
            onClick={() => void submitWith(true)()}
          >
            {t('research.addAndSend')}
          </Button>
        </Group>
      </Group>
    </form>
  );
}
