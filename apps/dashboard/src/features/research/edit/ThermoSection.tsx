import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Button,
  Card,
  FileButton,
  Group,
  Progress,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconDownload, IconFileText, IconPencil, IconPhoto, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { researchKeys } from '../../../api/keys';
import {
  deleteThermoConfig,
  thermoConfigFile,
  thermoConfigsQueryOptions,
  uploadThermoConfig,
} from '../../../api/research';
import type { ThermoConfig } from '../../../api/research-types';
import { confirmDestructive } from '../../../components/confirm';
import { Section } from '../../../components/Section';
import { FrozenControls } from '../../../components/frozen';
import { useErrorText } from '../../../components/use-error-text';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { thermoPairSchema, type ThermoPairValues } from '../../../lib/validation';
import { saveBlob } from '../../stream/history-api';
import type { EditorTarget } from '../editor/ThermoEditorModal';
import { ThermoFilesFields } from '../ThermoFilesFields';
import { ThermoThumbnail } from './ThermoThumbnail';

// The editor (react-konva) loads when it is first opened: the edit page does not wait for it.
const ThermoEditorModal = lazy(() =>
  import('../editor/ThermoEditorModal').then((m) => ({ default: m.ThermoEditorModal })),
);

/** Thermocouple configs: each photo with its markers, its file names and delete; an add form with progress. */
export function ThermoSection({ researchId, frozen = null }: { researchId: string; frozen?: string | null }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: configs, isPending } = useQuery(thermoConfigsQueryOptions(researchId));
  const invalidate = () => queryClient.invalidateQueries({ queryKey: researchKeys.thermo(researchId) });
  const [editing, setEditing] = useState<EditorTarget | null>(null);

  const download = useMutation({
    mutationFn: async (config: ThermoConfig) => saveBlob(await thermoConfigFile(config.id), config.config_filename),
    onError: (error) => notifyError(error, t('downloadError', { ns: 'editor' })),
  });

  const remove = useMutation({
    mutationFn: (config: ThermoConfig) => deleteThermoConfig(config.id),
    onSuccess: () => notifySuccess(t('research.configDeleted')),
    onError: (error) => notifyError(error, t('research.configDeleteError')),
    onSettled: invalidate,
  });

  const askDelete = (config: ThermoConfig) =>
    confirmDestructive({
      title: t('research.configDeleteTitle'),
      text: t('research.configDeleteText', { name: config.image_filename }),
      confirmLabel: t('common.delete'),
      cancelLabel: t('common.cancel'),
      onConfirm: () => remove.mutate(config),
    });

  return (
    <Section title={t('research.configs')}>
      {isPending ? <Skeleton height={120} /> : null}
      {configs?.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('research.noConfigs')}
        </Text>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} spacing="sm">
        {configs?.map((config) => (
          <Card key={config.id} withBorder radius="md" padding="sm" data-testid="thermo-row">
            <Stack gap="xs">
              <ThermoThumbnail config={config} width={480} />
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <FileName
                    icon={<IconPhoto size={14} aria-hidden />}
                    label={t('research.imageFile')}
                    name={config.image_filename}
                  />
                  <FileName
                    icon={<IconFileText size={14} aria-hidden />}
                    label={t('research.configFile')}
                    name={config.config_filename}
                  />
                </Stack>
                <Group gap={4} wrap="nowrap">
                  <Tooltip label={t('open', { ns: 'editor' })}>
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('openFor', { ns: 'editor', name: config.image_filename })}
                      onClick={() => setEditing({ kind: 'config', config })}
                      disabled={frozen !== null}
                    >
                      <IconPencil size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label={t('download', { ns: 'editor' })}>
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('downloadOf', { ns: 'editor', name: config.config_filename })}
                      onClick={() => download.mutate(config)}
                    >
                      <IconDownload size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label={t('research.configDeleteTitle')}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`${t('research.configDeleteTitle')}: ${config.image_filename}`}
                      onClick={() => askDelete(config)}
                      disabled={frozen !== null}
                    >
                      <IconTrash size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Group>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
      <FrozenControls reason={frozen}>
        <AddThermoForm researchId={researchId} onAdded={invalidate} />
        <CreateInEditor onPhoto={(file) => setEditing({ kind: 'photo', file })} />
      </FrozenControls>
      {editing ? (
        <Suspense fallback={<Skeleton height={120} />}>
          <ThermoEditorModal researchId={researchId} target={editing} onClose={() => setEditing(null)} />
        </Suspense>
      ) : null}
    </Section>
  );
}

/** A photo alone, then the markers placed in the editor instead of a written config file. */
function CreateInEditor({ onPhoto }: { onPhoto: (file: File) => void }) {
  const { t } = useTranslation('editor');
  const [wrongType, setWrongType] = useState(false);
  return (
    <Group gap="sm" wrap="wrap">
      <Text size="sm" c="dimmed">
        {t('createHint')}
      </Text>
      <FileButton
        accept="image/png,image/jpeg"
        onChange={(file) => {
          if (!file) return;
          const ok = file.type === 'image/png' || file.type === 'image/jpeg';
          setWrongType(!ok);
          if (ok) onPhoto(file);
        }}
      >
        {(props) => (
          <Button {...props} variant="light" leftSection={<IconPencil size={16} aria-hidden />}>
            {t('create')}
          </Button>
        )}
      </FileButton>
      {wrongType ? (
        <Text size="sm" c="red" role="alert">
          {t('photoType')}
        </Text>
      ) : null}
    </Group>
  );
}

function FileName({ icon, label, name }: { icon: ReactNode; label: string; name: string }) {
  return (
    <Group gap={6} wrap="nowrap">
      {icon}
      <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {label}:
      </Text>
      <Text size="sm" fw={500} truncate="end" title={name}>
        {name}
      </Text>
    </Group>
  );
}

const EMPTY_PAIR: ThermoPairValues = { image: null, config: null, check: null };

export function AddThermoForm({ researchId, onAdded }: { researchId: string; onAdded: () => Promise<void> }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [progress, setProgress] = useState<number | null>(null);
  const {
    control,
    handleSubmit,
    reset,
    trigger,
    setValue,
    formState: { errors, isValid, isSubmitting },
  } = useForm({ mode: 'onTouched', resolver: zodResolver(thermoPairSchema), defaultValues: EMPTY_PAIR });
  const [image, config, check] = useWatch({ control, name: ['image', 'config', 'check'] });
  const pair: ThermoPairValues = { image, config, check };

  const add = useMutation({
    mutationFn: ({ image, config }: { image: File; config: File }) =>
      uploadThermoConfig(researchId, image, config, ({ loaded, total }) =>
        setProgress(total > 0 ? (loaded / total) * 100 : 0),
      ),
    onSuccess: () => {
      reset(EMPTY_PAIR);
      notifySuccess(t('research.configAdded'));
    },
    onError: (error) => notifyError(error, t('research.configAddError')),
    onSettled: () => {
      setProgress(null);
      return onAdded();
    },
  });

  const submit = async (values: ThermoPairValues) => {
    if (!values.image || !values.config) return;
    setProgress(0);
    await add.mutateAsync({ image: values.image, config: values.config }).then(
      () => undefined,
      () => undefined,
    );
  };

  return (
    <form onSubmit={handleSubmit(submit)} noValidate aria-label={t('research.addConfig')}>
      <Card withBorder radius="md" padding="sm" mt="xs" bg="var(--mantine-color-default-hover)">
        <Stack gap="sm">
          <ThermoFilesFields
            value={pair}
            onChange={(next) => {
              setValue('image', next.image, { shouldDirty: true, shouldTouch: true });
              setValue('config', next.config, { shouldDirty: true, shouldTouch: true });
              setValue('check', next.check);
              void trigger();
            }}
            errors={{ image: errorText(errors.image), config: errorText(errors.config) }}
            disabled={isSubmitting}
          />
          {progress !== null ? (
            <Progress
              value={progress}
              animated
              aria-label={t('research.uploading', { percent: Math.round(progress) })}
            />
          ) : null}
          <Group justify="flex-end">
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
      </Card>
    </form>
  );
}
