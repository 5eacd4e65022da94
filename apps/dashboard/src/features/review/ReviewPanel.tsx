import type { ResearchDto, RevisionDto } from '@furnace/api-client';
import { Alert, Button, Code, Group, Modal, Paper, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import {
  IconCertificate,
  IconCheck,
  IconFileTypePdf,
  IconLockOpen,
  IconShieldCheck,
  IconRosetteDiscountCheck,
} from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { researchKeys } from '../../api/keys';
import { currentUserQueryOptions } from '../../api/users';
import { Section } from '../../components/Section';
import { formatDateTime } from '../../lib/dates';
import { notifyError, notifySuccess } from '../../lib/notify';
import {
  approveResearch,
  downloadIssued,
  reopenResearch,
  reviewResearch,
  revisionsQueryOptions,
  verifyResearch,
} from './review-api';
import { StateBadge } from './StateBadge';

type Step = 'review' | 'approve' | 'reopen';

const sameEmail = (a: string | null | undefined, b: string | null | undefined) =>
  !!a && !!b && a.toLowerCase() === b.toLowerCase();

/**
 * The history page's review of an ended test (docs/behaviour.md, "The permanent record"): its state, who reviewed
 * and approved it, the buttons of the next step (review; approve, by someone else; reopen, a superuser's, with a
 * reason) and the documents issued with each revision.
 */
export function ReviewPanel({ research }: { research: ResearchDto }) {
  const { t } = useTranslation('review');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const { data: me } = useQuery(currentUserQueryOptions());
  const revisions = useQuery(revisionsQueryOptions(research.id));
  const [step, setStep] = useState<Step | null>(null);
  const [text, setText] = useState('');
  const nextRevision = Math.max(0, ...(revisions.data ?? []).map((r) => r.revision)) + 1;

  const act = useMutation({
    mutationFn: ({ step, text }: { step: Step; text: string }) => {
      const value = text.trim();
      if (step === 'review') return reviewResearch(research.id, value || null);
      if (step === 'approve') return approveResearch(research.id, value || null);
      return reopenResearch(research.id, value);
    },
    onSuccess: (saved, { step }) => {
      queryClient.setQueryData(researchKeys.detail(research.id), saved);
      notifySuccess(
        step === 'approve'
          ? t('approve.done', { revision: saved.approved_revision ?? nextRevision })
          : t(`${step}.done`),
      );
      setStep(null);
    },
    onError: (error, { step }) => notifyError(error, t(`${step}.error`)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: researchKeys.all }),
  });

  const open = (next: Step) => {
    setText('');
    setStep(next);
  };
  const { state } = research;
  const ownReview = state === 'reviewed' && sameEmail(me?.email, research.reviewed_by);
  const superuser = me?.is_superuser === true;

  return (
    <Section title={t('panel.title')} action={<StateBadge research={research} size="md" />}>
      <Stack gap={4} data-testid="review-panel">
        {state === 'planned' || state === 'running' ? (
          <Text size="sm" c="dimmed">
            {t('panel.notEnded')}
          </Text>
        ) : null}
        {research.reviewed_by && research.reviewed_at ? (
          <Text size="sm" data-testid="reviewed-by">
            {t('panel.reviewed', { who: research.reviewed_by, when: formatDateTime(research.reviewed_at) })}
            {research.review_comment ? ` · ${t('panel.comment', { text: research.review_comment })}` : ''}
          </Text>
        ) : null}
        {research.approved_by && research.approved_at ? (
          <Text size="sm" data-testid="approved-by">
            {t('panel.approved', { who: research.approved_by, when: formatDateTime(research.approved_at) })}
            {research.approval_comment ? ` · ${t('panel.comment', { text: research.approval_comment })}` : ''}
          </Text>
        ) : null}
        {research.reopened_by && research.reopened_at && state !== 'approved' ? (
          <Text size="sm" c="dimmed">
            {t('panel.reopened', {
              who: research.reopened_by,
              when: formatDateTime(research.reopened_at),
              reason: research.reopen_reason ?? '—',
            })}
          </Text>
        ) : null}
        {state === 'reviewed' ? (
          <Text size="sm" c="dimmed">
            {ownReview ? t('panel.notReviewer', { who: research.reviewed_by }) : t('panel.changeWithdraws')}
          </Text>
        ) : null}
      </Stack>
      <Group gap="xs">
        {state === 'ended' ? (
          <Button leftSection={<IconCheck size={16} aria-hidden />} onClick={() => open('review')}>
            {t('review.button')}
          </Button>
        ) : null}
        {state === 'reviewed' ? (
          <Button
            leftSection={<IconRosetteDiscountCheck size={16} aria-hidden />}
            color="green"
            disabled={ownReview}
            onClick={() => open('approve')}
          >
            {t('approve.button')}
          </Button>
        ) : null}
        {state === 'approved' ? (
          <Tooltip label={t('reopen.onlySuperuser')} disabled={superuser}>
            <span>
              <Button
                leftSection={<IconLockOpen size={16} aria-hidden />}
                variant="light"
                color="orange"
                disabled={!superuser}
                onClick={() => open('reopen')}
              >
                {t('reopen.button')}
              </Button>
            </span>
          </Tooltip>
        ) : null}
      </Group>
      <Revisions researchId={research.id} revisions={revisions.data ?? []} />
      <Modal
        opened={step !== null}
        onClose={() => setStep(null)}
        title={step ? t(`${step}.title`) : ''}
        centered
        closeButtonProps={{ 'aria-label': tc('common.close') }}
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (step && (step !== 'reopen' || text.trim() !== '')) act.mutate({ step, text });
          }}
        >
          <Stack gap="sm">
            <Text size="sm">
              {step === 'approve' ? t('approve.hint', { revision: nextRevision }) : step ? t(`${step}.hint`) : ''}
            </Text>
            <Textarea
              label={step === 'reopen' ? t('reasonLabel') : t('commentLabel')}
              required={step === 'reopen'}
              autosize
              minRows={2}
              maxLength={2000}
              value={text}
              onChange={(event) => setText(event.currentTarget.value)}
              data-testid="review-text"
              data-autofocus
            />
            <Group justify="flex-end" gap="xs">
              <Button variant="default" onClick={() => setStep(null)} disabled={act.isPending}>
                {tc('common.cancel')}
              </Button>
              <Button
                type="submit"
                loading={act.isPending}
                disabled={step === 'reopen' && text.trim() === ''}
                data-testid="review-confirm"
              >
                {step ? t(`${step}.button`) : t('confirm')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Section>
  );
}

const DOCUMENTS = [
  { kind: 'report', lang: 'pl' },
  { kind: 'report', lang: 'en' },
  { kind: 'classification', lang: 'pl' },
  { kind: 'classification', lang: 'en' },
] as const;

/** Each revision's documents, downloaded byte for byte as issued, and the check of the raw data against each. */
function Revisions({ researchId, revisions }: { researchId: string; revisions: readonly RevisionDto[] }) {
  const { t } = useTranslation('review');
  const download = useMutation({
    mutationFn: ({
      revision,
      kind,
      lang,
    }: {
      revision: number;
      kind: 'report' | 'classification';
      lang: 'pl' | 'en';
    }) => downloadIssued(researchId, revision, kind, lang),
    onError: (error) => notifyError(error, t('revisions.downloadError')),
  });
  const verify = useMutation({
    mutationFn: () => verifyResearch(researchId),
    onError: (error) => notifyError(error, t('verify.error')),
  });
  const checked = new Map((verify.data?.revisions ?? []).map((r) => [r.revision, r.matches]));

  return (
    <Stack gap="xs" data-testid="revisions">
      <Text fw={700} size="sm">
        {t('revisions.title')}
      </Text>
      {revisions.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('revisions.none')}
        </Text>
      ) : null}
      {[...revisions].reverse().map((r) => (
        <Paper key={r.revision} withBorder radius="md" p="sm" data-testid={`revision-${r.revision}`}>
          <Stack gap={4}>
            <Group gap="xs" justify="space-between">
              <Text fw={600} size="sm">
                {t('revisions.revision', { revision: r.revision })}
              </Text>
              {checked.has(r.revision) ? (
                <Text size="xs" c={checked.get(r.revision) ? 'green' : 'red'} fw={700} data-testid="verify-result">
                  {t(checked.get(r.revision) ? 'verify.matches' : 'verify.differs', { revision: r.revision })}
                </Text>
              ) : null}
            </Group>
            <Text size="xs" c="dimmed">
              {t('panel.reviewed', { who: r.reviewed_by, when: formatDateTime(r.reviewed_at) })} ·{' '}
              {t('panel.approved', { who: r.approved_by, when: formatDateTime(r.approved_at) })}
            </Text>
            {r.data_sha256 ? (
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {t('revisions.hash')} <Code>{r.data_sha256}</Code>
              </Text>
            ) : null}
            <Group gap={6}>
              {DOCUMENTS.map(({ kind, lang }) => {
                const name = t('revisions.download', {
                  document: t(`revisions.${kind}`),
                  lang: lang.toUpperCase(),
                  revision: r.revision,
                });
                return (
                  <Button
                    key={`${kind}-${lang}`}
                    size="xs"
                    variant="light"
                    leftSection={
                      kind === 'report' ? (
                        <IconFileTypePdf size={14} aria-hidden />
                      ) : (
                        <IconCertificate size={14} aria-hidden />
                      )
                    }
                    onClick={() => download.mutate({ revision: r.revision, kind, lang })}
                    aria-label={name}
                    title={name}
                  >
                    {t(`revisions.${kind}`)} {lang.toUpperCase()}
                  </Button>
                );
              })}
            </Group>
          </Stack>
        </Paper>
      ))}
      {revisions.length > 0 ? (
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            leftSection={<IconShieldCheck size={14} aria-hidden />}
            loading={verify.isPending}
            onClick={() => verify.mutate()}
          >
            {t('verify.button')}
          </Button>
          {verify.data ? (
            <Alert color="gray" variant="transparent" p={0}>
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {t('verify.now', { hash: verify.data.data_sha256, readings: verify.data.readings })}
              </Text>
            </Alert>
          ) : null}
        </Group>
      ) : null}
    </Stack>
  );
}
