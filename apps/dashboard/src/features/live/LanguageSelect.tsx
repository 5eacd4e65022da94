import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isLanguage, type Language, LANGUAGES, setLanguage } from '../../i18n';
import { FlagGB, FlagPL } from './Flags';

const FLAGS: Record<Language, () => React.JSX.Element> = { pl: () => <FlagPL />, en: () => <FlagGB /> };

/**
 * The live view's language select (docs/behaviour.md §2): English with the GB flag, Polish with its flag. A native
 * select: it works the same with a mouse, a keyboard, a screen reader and a phone's picker.
 */
/** `compact`: no visible label (a toolbar); the select keeps it as its accessible name. */
export function LanguageSelect({ size = 'sm', compact = false }: { size?: 'sm' | 'md' | 'lg'; compact?: boolean }) {
  const { t, i18n } = useTranslation('live');
  const current: Language = isLanguage(i18n.language) ? i18n.language : 'pl';
  const Flag = FLAGS[current];
  // English first, as the spec lists them.
  const order = [...LANGUAGES].sort((a) => (a === 'en' ? -1 : 1));
  return (
    <NativeSelect
      size={size}
      label={compact ? undefined : t('language.label')}
      aria-label={compact ? t('language.label') : undefined}
      value={current}
      onChange={(event) => {
        const next = event.currentTarget.value;
        if (isLanguage(next)) setLanguage(next);
      }}
      leftSection={<Flag />}
      data={order.map((language) => ({ value: language, label: t(`language.${language}`) }))}
      data-testid="language-select"
    />
  );
}
