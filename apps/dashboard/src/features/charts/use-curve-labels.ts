import { type HeatingCurveId } from '@furnace/contracts';
import { useComputedColorScheme } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChartTexts } from './chart-option';
import { elapsedLabel } from './chart-option';
import type { CurveLabels } from './curve-specs';

/** The curves' texts in the current language (namespace "history"; the heating curve's name: "criteria"), and the colour scheme. */
export function useCurveLabels(
  header?: (ms: number) => string,
  curve: HeatingCurveId = 'iso834',
): { labels: CurveLabels; texts: ChartTexts; language: string } {
  const { t, i18n } = useTranslation(['history', 'criteria']);
  const language = i18n.language;
  const dark = useComputedColorScheme('light') === 'dark';
  return useMemo(() => {
    const labels: CurveLabels = {
      furnace: t('chart.furnace'),
      pk: t('chart.pk'),
      // The profile's heating curve, drawn where ISO 834 is by default.
      iso834: t(`criteria:curve.${curve}`),
      categories: t('chart.categories'),
      thermocouples: t('chart.thermocouples'),
      scalars: t('chart.scalars'),
      radiance: t('chart.radiance'),
      pressure: t('chart.pressure'),
      categoryMax: (type) => t('chart.categoryMax', { type }),
      categoryMean: (type) => t('chart.categoryMean', { type }),
      criticalMax: (value) => t('chart.criticalMax', { value }),
      criticalMean: (value) => t('chart.criticalMean', { value }),
    };
    const texts: ChartTexts = { more: (count) => t('chart.more', { count }), header: header ?? elapsedLabel, dark };
    return { labels, texts, language };
    // `language` is listed: a language switch changes what `t` returns without changing `t`.
  }, [t, language, header, dark, curve]);
}
