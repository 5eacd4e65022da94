import { Button, Checkbox, ColorSwatch, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ChartThermocouple } from '../charts/curve-specs';

/** A checkbox per thermocouple (shown on the chart or not), with All / None. */
export function ThermoToggles({
  thermocouples,
  hidden,
  onChange,
}: {
  thermocouples: readonly ChartThermocouple[];
  hidden: ReadonlySet<number>;
  onChange: (hidden: Set<number>) => void;
}) {
  const { t } = useTranslation('history');
  const toggle = (id: number, shown: boolean) => {
    const next = new Set(hidden);
    if (shown) next.delete(id);
    else next.add(id);
    onChange(next);
  };
  return (
    <Stack gap="xs" data-testid="thermo-toggles">
      <Group justify="space-between" gap="xs">
        <Text size="sm" c="dimmed">
          {t('thermo.shown', { shown: thermocouples.length - hidden.size, total: thermocouples.length })}
        </Text>
        <Group gap={4}>
          <Button size="compact-xs" variant="light" onClick={() => onChange(new Set())}>
            {t('thermo.all')}
          </Button>
          <Button
            size="compact-xs"
            variant="light"
            color="gray"
            onClick={() => onChange(new Set(thermocouples.map((th) => th.thermoId)))}
          >
            {t('thermo.none')}
          </Button>
        </Group>
      </Group>
      <ScrollArea.Autosize mah={420} type="auto" offsetScrollbars>
        <Group gap="xs">
          {thermocouples.map((thermo) => (
            <Checkbox
              key={thermo.thermoId}
              size="xs"
              checked={!hidden.has(thermo.thermoId)}
              onChange={(event) => toggle(thermo.thermoId, event.currentTarget.checked)}
              aria-label={t('thermo.toggle', { name: thermo.name })}
              label={
                <Group gap={4} wrap="nowrap">
                  <ColorSwatch color={thermo.color ?? '#868e96'} size={10} withShadow={false} />
                  <span>{thermo.name}</span>
                </Group>
              }
              miw={72}
            />
          ))}
        </Group>
      </ScrollArea.Autosize>
    </Stack>
  );
}
