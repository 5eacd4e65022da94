import { FileInput, List, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconFileText, IconPhoto } from '@tabler/icons-react';
import { formatThermoConfigError } from '@furnace/contracts';
import { useRef, type ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { checkThermoConfig } from '../../lib/thermo-files';
import type { ThermoPairValues } from '../../lib/validation';

const SHOWN_CONFIG_ERRORS = 6;

export interface ThermoFilesFieldsProps {
  value: ThermoPairValues;
  onChange: (value: ThermoPairValues) => void;
  onBlur?: () => void;
  errors?: { image?: string; config?: string };
  disabled?: boolean;
  /** Distinguishes the inputs of several pairs for assistive technology and tests. */
  index?: number;
}

/**
 * A photo (PNG/JPG) and its thermocouple config (.txt). The config is read in the browser as soon
 * as it is chosen, so its errors (by line and field) show before anything is uploaded.
 */
export function ThermoFilesFields({ value, onChange, onBlur, errors, disabled, index }: ThermoFilesFieldsProps) {
  const { t } = useTranslation();
  const latest = useRef(0);
  const suffix = index === undefined ? '' : `-${index}`;

  const update = async (next: ThermoPairValues) => {
    const run = ++latest.current;
    onChange({ ...next, check: null });
    if (next.config) {
      const check = await checkThermoConfig(next.config, next.image);
      if (run === latest.current) onChange({ ...next, check });
    }
  };

  const check = value.check;
  const configDescription = check?.ok ? t('research.markersFound', { count: check.markers }) : undefined;

  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <FileInput
          label={t('research.photoLabel')}
          placeholder={t('research.choosePhoto')}
          accept="image/png,image/jpeg"
          value={value.image}
          onChange={(image) => void update({ ...value, image })}
          onBlur={onBlur}
          error={errors?.image}
          leftSection={<IconPhoto size={16} aria-hidden />}
          clearable
          clearButtonProps={{ 'aria-label': t('common.clear') }}
          disabled={disabled}
          fileInputProps={{ 'data-testid': `thermo-image${suffix}` } as ComponentProps<'input'>}
        />
        <FileInput
          label={t('research.configLabel')}
          placeholder={t('research.chooseConfig')}
          accept=".txt,text/plain"
          value={value.config}
          onChange={(config) => void update({ ...value, config })}
          onBlur={onBlur}
          error={errors?.config}
          description={configDescription}
          leftSection={<IconFileText size={16} aria-hidden />}
          clearable
          clearButtonProps={{ 'aria-label': t('common.clear') }}
          disabled={disabled}
          fileInputProps={{ 'data-testid': `thermo-config${suffix}` } as ComponentProps<'input'>}
        />
      </SimpleGrid>
      {check && !check.ok ? (
        <List size="xs" c="red" spacing={2} aria-live="polite">
          {check.errors.slice(0, SHOWN_CONFIG_ERRORS).map((error, i) => (
            <List.Item key={i}>{formatThermoConfigError(error)}</List.Item>
          ))}
          {check.errors.length > SHOWN_CONFIG_ERRORS ? <List.Item>…</List.Item> : null}
        </List>
      ) : null}
      {value.image && value.config && check === null ? (
        <Text size="xs" c="dimmed">
          {t('common.loading')}
        </Text>
      ) : null}
    </Stack>
  );
}
