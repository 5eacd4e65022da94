import { Alert, Modal, Skeleton } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { researchKeys, thermoKeys } from '../../../api/keys';
import {
  replaceThermoConfig,
  thermoCoordsQueryOptions,
  thermoImageQueryOptions,
  uploadThermoConfig,
} from '../../../api/research';
import type { ThermoConfig } from '../../../api/research-types';
import { errorMessage, notifyError, notifySuccess } from '../../../lib/notify';
import { toEditorMarkers } from './markers';
import { ThermoEditor } from './ThermoEditor';

/** What the editor opens: a stored config, or a photo for a new one. */
export type EditorTarget = { kind: 'config'; config: ThermoConfig } | { kind: 'photo'; file: File };

/** The file name a new config gets: the photo's, with .txt. */
const configName = (photoName: string) => `${photoName.replace(/\.[^.]*$/, '') || 'termopary'}.txt`;

/**
 * The editor full screen, for a stored config (its photo and markers loaded first) or for a new photo.
 * A new config is created by its first save (photo + file, as an upload); every later save replaces
 * the markers of that config.
 */
export function ThermoEditorModal({
  researchId,
  target,
  onClose,
}: {
  researchId: string;
  target: EditorTarget;
  onClose: () => void;
}) {
  const { t } = useTranslation('editor');
  const queryClient = useQueryClient();
  const stored = target.kind === 'config' ? target.config : null;
  const [configId, setConfigId] = useState<string | null>(stored?.id ?? null);
  const image = useQuery({ ...thermoImageQueryOptions(stored?.id ?? ''), enabled: stored !== null });
  const coords = useQuery({ ...thermoCoordsQueryOptions(stored?.id ?? ''), enabled: stored !== null });

  const save = async (file: File) => {
    try {
      if (configId) {
        await replaceThermoConfig(configId, file);
        await queryClient.invalidateQueries({ queryKey: thermoKeys.coords(configId) });
      } else if (target.kind === 'photo') {
        const created = await uploadThermoConfig(researchId, target.file, file);
        setConfigId(created.id);
      }
      await queryClient.invalidateQueries({ queryKey: researchKeys.thermo(researchId) });
      notifySuccess(t('saved'));
    } catch (error) {
      notifyError(error, t('saveError'));
      throw error;
    }
  };

  const photo = target.kind === 'photo' ? target.file : image.data;
  const markers = target.kind === 'photo' ? [] : coords.data ? toEditorMarkers(coords.data) : null;
  const failed = image.error ?? coords.error;

  return (
    <Modal.Root opened onClose={onClose} fullScreen closeOnEscape={false}>
      <Modal.Overlay />
      {/* Named here: Mantine names a dialog only after its own Modal.Title, which the editor does not use. */}
      <Modal.Content aria-label={t('title')}>
        <Modal.Body p="md">
          {failed ? (
            <Alert color="red" title={t('title')} withCloseButton onClose={onClose}>
              {errorMessage(failed)}
            </Alert>
          ) : photo && markers ? (
            <LoadedEditor
              photo={photo}
              photoName={target.kind === 'photo' ? target.file.name : target.config.image_filename}
              size={stored ? { width: stored.image_width, height: stored.image_height } : undefined}
              markers={markers}
              filename={stored ? stored.config_filename : configName(target.kind === 'photo' ? target.file.name : '')}
              onSave={save}
              onClose={onClose}
            />
          ) : (
            <Skeleton height={420} radius="md" />
          )}
        </Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}

/** The editor once its photo and markers are there; its starting markers are fixed at that moment. */
function LoadedEditor({
  markers,
  ...props
}: Omit<Parameters<typeof ThermoEditor>[0], 'initial'> & { markers: Parameters<typeof ThermoEditor>[0]['initial'] }) {
  const [initial] = useState(markers);
  return <ThermoEditor {...props} initial={initial} />;
}
