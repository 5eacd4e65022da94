import { Group, Radio, SimpleGrid, Stack, Text, ThemeIcon, Title, useMantineColorScheme } from '@mantine/core';
import { IconDeviceDesktop, IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { toColorScheme, toThemeChoice, type ThemeChoice } from '../../app/color-scheme';
import classes from './AppearanceTab.module.css';

const CHOICES: {
  value: ThemeChoice;
  label: 'settings.system' | 'settings.light' | 'settings.dark';
  icon: typeof IconSun;
}[] = [
  { value: 'system', label: 'settings.system', icon: IconDeviceDesktop },
  { value: 'light', label: 'settings.light', icon: IconSun },
  { value: 'dark', label: 'settings.dark', icon: IconMoon },
];

/** System, Light Mode, Dark Mode: stored under 'theme' by the color-scheme manager. */
export function AppearanceTab() {
  const { t } = useTranslation();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return (
    <Stack gap="md">
      <Title order={2} fz="lg" id="appearance-title">
        {t('settings.appearance')}
      </Title>
      <Radio.Group
        value={toThemeChoice(colorScheme)}
        onChange={(value) => {
          const scheme = toColorScheme(value);
          if (scheme) setColorScheme(scheme);
        }}
        aria-labelledby="appearance-title"
      >
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm" maw={660}>
          {CHOICES.map((choice) => (
            <Radio.Card
              key={choice.value}
              value={choice.value}
              radius="md"
              p="md"
              className={classes.card}
              data-testid={`theme-${choice.value}`}
            >
              <Group wrap="nowrap" gap="sm">
                <Radio.Indicator />
                <ThemeIcon variant="light" size="lg" radius="md" aria-hidden>
                  <choice.icon size={18} />
                </ThemeIcon>
                <Text fw={600} size="sm">
                  {t(choice.label)}
                </Text>
              </Group>
            </Radio.Card>
          ))}
        </SimpleGrid>
      </Radio.Group>
    </Stack>
  );
}
