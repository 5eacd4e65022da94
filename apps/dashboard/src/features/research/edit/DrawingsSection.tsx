import { ActionIcon, Button, FileButton, Group, Progress, Skeleton, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconDownload, IconFileTypePdf, IconPhoto, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { researchKeys } from '../../../api/keys';
import { deleteDrawing, drawingFile, drawingsQueryOptions, uploadDrawing } from '../../../api/research';
import type { Drawing } from '../../../api/research-types';
import { confirmDestructive } from '../../../components/confirm';
import { Section } from '../../../components/Section';
import { FrozenNote } from '../../../components/frozen';
import type { ValidationKey } from '../../../i18n';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { saveBlob } from '../../stream/history-api';

/** The API's limit of a drawing (libs/api-server/src/drawings/drawing-check.ts). */
const MAX_DRAWING_BYTES = 20 * 1024 * 1024;
const ACCEPT = 'application/pdf,image/png,image/jpeg,.pdf,.png,.jpg,.jpeg';

/** Why a chosen file cannot be a drawing, before it is sent (the API checks its bytes again); null when it may. */
function drawingProblem(file: File): ValidationKey | null {
  if (!/\.(pdf|png|jpe?g)$/i.test(file.name)) return 'validation.drawingType';
  if (file.size > MAX_DRAWING_BYTES) return 'validation.drawingSize';
  return null;
}

const fileSize = (bytes: number) =>
  bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1000))} kB`;

/**
 * Drawings of the specimen for the test report (PDF or image): listed, downloaded, deleted, added with progress. Staff
 * only. `frozen`: why they cannot be added or deleted now (an approved test); they are still downloaded.
 */
export function DrawingsSection({ researchId, frozen = null }: { researchId: string; frozen?: string | null }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: drawings, isPending } = useQuery(drawingsQueryOptions(researchId));
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<ValidationKey | null>(null);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: researchKeys.drawings(researchId) });

  const add = useMutation({
    mutationFn: (file: File) =>
      uploadDrawing(researchId, file, ({ loaded, total }) => setProgress(total > 0 ? (loaded / total) * 100 : 0)),
    onSuccess: () => notifySuccess(t('research.drawings.added')),
    onError: (error) => notifyError(error, t('research.drawings.addError')),
    onSettled: () => {
      setProgress(null);
      return invalidate();
    },
  });
  const download = useMutation({
    mutationFn: async (drawing: Drawing) => saveBlob(await drawingFile(researchId, drawing.id), drawing.filename),
    onError: (error) => notifyError(error, t('research.drawings.downloadError')),
  });
  const remove = useMutation({
    mutationFn: (drawing: Drawing) => deleteDrawing(researchId, drawing.id),
    onSuccess: () => notifySuccess(t('research.drawings.deleted')),
    onError: (error) => notifyError(error, t('research.drawings.deleteError')),
    onSettled: invalidate,
  });

  const choose = (file: File | null) => {
    if (!file) return;
    const wrong = drawingProblem(file);
    setProblem(wrong);
    if (!wrong) {
      setProgress(0);
      add.mutate(file);
    }
  };
  const askDelete = (drawing: Drawing) =>
    confirmDestructive({
      title: t('research.drawings.deleteTitle'),
      text: t('research.drawings.deleteText', { name: drawing.filename }),
      confirmLabel: t('common.delete'),
      cancelLabel: t('common.cancel'),
      onConfirm: () => remove.mutate(drawing),
    });

  return (
    <Section
      title={t('research.drawings.title')}
      action={
        <FileButton accept={ACCEPT} onChange={choose} disabled={add.isPending || frozen !== null}>
          {(props) => (
            <Button
              {...props}
              variant="light"
              size="xs"
              leftSection={<IconPlus size={14} aria-hidden />}
              loading={add.isPending}
              disabled={frozen !== null}
            >
              {t('research.drawings.add')}
            </Button>
          )}
        </FileButton>
      }
    >
      <Stack gap="xs">
        <FrozenNote reason={frozen} />
        <Text size="sm" c="dimmed">
          {t('research.drawings.hint')}
        </Text>
        {problem ? (
          <Text size="sm" c="red" role="alert">
            {t(problem)}
          </Text>
        ) : null}
        {progress !== null ? (
          <Progress
            value={progress}
            animated
            aria-label={t('research.drawings.uploading', { percent: Math.round(progress) })}
          />
        ) : null}
        {isPending ? <Skeleton height={60} /> : null}
        {drawings?.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('research.drawings.empty')}
          </Text>
        ) : null}
        {drawings && drawings.length > 0 ? (
          <Table verticalSpacing={4} data-testid="drawings">
            <Table.Tbody>
              {drawings.map((drawing) => (
                <Table.Tr key={drawing.id}>
                  <Table.Td w={28}>
                    {drawing.mime === 'application/pdf' ? (
                      <IconFileTypePdf size={18} aria-hidden />
                    ) : (
                      <IconPhoto size={18} aria-hidden />
                    )}
                  </Table.Td>
                  <Table.Td style={{ wordBreak: 'break-word' }}>
                    <Text size="sm" fw={500}>
                      {drawing.filename}
                    </Text>
                  </Table.Td>
                  <Table.Td w={90}>
                    <Text size="sm" c="dimmed" ta="right">
                      {fileSize(drawing.size)}
                    </Text>
                  </Table.Td>
                  <Table.Td w={80}>
                    <Group gap={4} wrap="nowrap" justify="flex-end">
                      <Tooltip label={t('research.drawings.download', { name: drawing.filename })}>
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('research.drawings.download', { name: drawing.filename })}
                          onClick={() => download.mutate(drawing)}
                        >
                          <IconDownload size={18} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label={t('research.drawings.delete', { name: drawing.filename })}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('research.drawings.delete', { name: drawing.filename })}
                          onClick={() => askDelete(drawing)}
                          disabled={frozen !== null}
                        >
                          <IconTrash size={18} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : null}
      </Stack>
    </Section>
  );
}
