import { Button, FileButton, Group, Paper, Progress, Text } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ArchiveImportedDto } from '@furnace/api-client';
import { researchKeys } from '../../api/keys';
import { uploadForm, type UploadProgress } from '../../api/upload';
import { notifyError, notifySuccess } from '../../lib/notify';

/**
 * Imports a test's archive (superusers, /audit): the server checks it against its manifest and the raw data's hash
 * and restores it as a new, archived test, or refuses it naming what does not match (docs/behaviour.md §14).
 */
export function ArchiveImport() {
  const { t } = useTranslation('audit');
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const upload = useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return uploadForm<ArchiveImportedDto>('/api/v1/research/import', form, setProgress);
    },
    onSuccess: async (imported) => {
      notifySuccess(t('import.done', { readings: imported.readings }));
      await queryClient.invalidateQueries({ queryKey: researchKeys.all });
    },
    onError: (error) => notifyError(error, t('import.error')),
    onSettled: () => setProgress(null),
  });
  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-label={t('import.title')}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <div>
          <Text fw={600}>{t('import.title')}</Text>
          <Text size="sm" c="dimmed">
            {t('import.text')}
          </Text>
        </div>
        <FileButton accept="application/zip,.zip" onChange={(file) => file && upload.mutate(file)}>
          {(props) => (
            <Button
              {...props}
              variant="light"
              leftSection={<IconFileImport size={16} aria-hidden />}
              loading={upload.isPending}
              data-testid="archive-import"
            >
              {t('import.button')}
            </Button>
          )}
        </FileButton>
      </Group>
      {progress && progress.total > 0 ? (
        <Progress mt="sm" value={(100 * progress.loaded) / progress.total} aria-label={t('import.title')} />
      ) : null}
    </Paper>
  );
}
