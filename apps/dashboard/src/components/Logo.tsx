import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconFlame } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** The brand mark: a flame on teal and the product name. */
export function Logo({ size = 'md', inverted = false }: { size?: 'md' | 'lg'; inverted?: boolean }) {
  const { t } = useTranslation();
  const large = size === 'lg';
  return (
    <Group gap={8} wrap="nowrap">
      <ThemeIcon size={large ? 44 : 32} radius="md" color="brand" variant={inverted ? 'white' : 'filled'} aria-hidden>
        <IconFlame size={large ? 28 : 20} stroke={1.8} />
      </ThemeIcon>
      <Text fw={700} fz={large ? 26 : 18} c={inverted ? 'white' : undefined} lh={1.1} style={{ whiteSpace: 'nowrap' }}>
        {t('brand')}
      </Text>
    </Group>
  );
}
