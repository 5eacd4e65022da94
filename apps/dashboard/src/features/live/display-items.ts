import { type Embed, toEmbed } from './embed-url';
import type { ResearchUrl, ThermoConfig } from '../../api/research-types';

/** One thing the main area can show: a thermocouple photo or a camera. */
export type DisplayItem =
  | {
      readonly kind: 'photo';
      readonly key: string;
      readonly config: ThermoConfig;
      readonly index: number;
      readonly count: number;
    }
  | {
      readonly kind: 'camera';
      readonly key: string;
      readonly url: ResearchUrl;
      readonly embed: Exclude<Embed, { kind: 'invalid' }>;
      readonly index: number;
      readonly count: number;
    };

/** The photos, then the cameras (docs/behaviour.md §4); a link that cannot be embedded is left out. */
export function displayItems(configs: readonly ThermoConfig[], urls: readonly ResearchUrl[]): DisplayItem[] {
  const cameras = urls.flatMap((url) => {
    const embed = toEmbed(url.url);
    return embed.kind === 'invalid' ? [] : [{ url, embed }];
  });
  return [
    ...configs.map((config, index): DisplayItem => ({
      kind: 'photo',
      key: `photo:${config.id}`,
      config,
      index,
      count: configs.length,
    })),
    ...cameras.map(({ url, embed }, index): DisplayItem => ({
      kind: 'camera',
      key: `camera:${url.id}`,
      url,
      embed,
      index,
      count: cameras.length,
    })),
  ];
}

/** The selected item's position; the first when none (or a removed one) is selected; -1 when there are none. */
export function selectedIndex(items: readonly DisplayItem[], selectedKey: string | null): number {
  if (items.length === 0) return -1;
  const index = selectedKey === null ? -1 : items.findIndex((item) => item.key === selectedKey);
  return index === -1 ? 0 : index;
}

/** The key `step` items away from the selected one, wrapping around both ends. */
export function cycleKey(items: readonly DisplayItem[], selectedKey: string | null, step: number): string | null {
  if (items.length === 0) return null;
  const current = selectedIndex(items, selectedKey);
  const next = (((current + step) % items.length) + items.length) % items.length;
  return items[next]?.key ?? null;
}
