import { CATALOGUES } from '@furnace/text';
import { i18n } from './index';

const { live: livePl } = CATALOGUES.pl;
const { live: liveEn } = CATALOGUES.en;

type Tree = { [key: string]: string | Tree };

function keys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keys(value, `${prefix}${key}.`),
  );
}

describe('the live namespace', () => {
  it('has the same keys in Polish and English, none empty', () => {
    expect(keys(liveEn as Tree).sort()).toEqual(keys(livePl as Tree).sort());
    // Registered under "live" in both languages, none empty.
    for (const key of keys(livePl as Tree)) {
      expect(i18n.getResource('pl', 'live', key)).toEqual(expect.stringMatching(/\S/));
      expect(i18n.getResource('en', 'live', key)).toEqual(expect.stringMatching(/\S/));
    }
  });

  it("holds the product's exact texts", () => {
    const t = i18n.getFixedT('pl', 'live');
    expect(t('status.notStartedTitle')).toBe('Badanie jeszcze się nie zaczęło!');
    expect(t('status.notStartedText')).toBe('Prosimy cierpliwie czekać aż link stanie się aktywny.');
    expect(t('status.notFoundTitle')).toBe('Badanie nie istnieje');
    expect(t('status.notFoundText')).toBe('Upewnij się czy wpisany link jest poprawny.');
    expect(t('status.endedTitle')).toBe('Badanie już się zakończyło!');
    expect(t('status.endedText')).toBe('Link przestał być aktywny.');
    expect(t('view.cameraTitle')).toBe('Podgląd z kamery');
    expect(t('view.thermoMode')).toBe('tryb termopar');
    expect(t('view.thermocouples')).toBe('termopary');
    expect(t('units.radiance')).toBe('kW/m²');
    expect(t('units.pressure')).toBe('Pa');
    expect(t('units.temperature')).toBe('°C');
  });
});
