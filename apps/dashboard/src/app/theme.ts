import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/*
 * Contrast (WCAG 2.1 AA, docs/behaviour.md §9): text reaches 4.5:1 against what it is on, in both
 * schemes. e2e/a11y.browser-spec.ts runs axe on the pages and fails on a violation.
 */

/** Brand teal: shade 6 is #009688 (docs/behaviour.md §9). */
const BRAND_COLOR = '#009688';
const brand: MantineColorsTuple = [
  '#e0f2f1',
  '#b2dfdb',
  '#80cbc4',
  '#4db6ac',
  '#26a69a',
  '#12a192',
  BRAND_COLOR,
  '#00897b',
  '#00796b',
  '#00695c',
];

export const theme = createTheme({
  primaryColor: 'brand',
  // White on #009688 is 3.7:1: filled controls, links and the top bar take the brand's shade 8
  // (#00796b, 5.3:1 with white) in both schemes.
  primaryShade: { light: 8, dark: 8 },
  colors: { brand },
  // A filled control or badge in any colour (a status's, a measurement type's own) gets black or
  // white text, whichever stands out more from it (at least 4.6:1): the colour itself keeps its meaning.
  autoContrast: true,
  // The luminance where black and white text contrast equally with the colour (Mantine's default, 0.3, left white on #2f9e44 at 3.4:1).
  luminanceThreshold: 0.179,
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '650' },
  focusRing: 'auto',
  cursorType: 'pointer',
  components: {
    Button: { defaultProps: { fw: 600 } },
    Tooltip: { defaultProps: { withArrow: true } },
    Modal: { styles: { title: { fontWeight: 650, fontSize: 'var(--mantine-font-size-lg)' } } },
  },
});

/**
 * Warning text (a forecast, suspect thermocouples, the one-click observations): Mantine's orange 8
 * and 9 are 3.6–4.0:1 on white and orange 8 4.3:1 on the dark body; a darker orange in the light
 * scheme (5.1:1 on orange's light background, 6.1:1 on white) and orange 4 in the dark one.
 */
const WARNING_TEXT_VAR = '--furnace-color-warning-text';
export const WARNING_TEXT = `var(${WARNING_TEXT_VAR})`;

/**
 * Dimmed text and placeholders (Mantine's gray 6, #868e96, is 3.3:1 on white, the placeholder's gray
 * 5 2.1:1; dark 2, #828282, 4.0:1 on the dark body) darker in the light scheme and lighter in the
 * dark one: 4.5:1 or more on white, gray-0 and the monitor's pale green and red tiles, and on the
 * dark body and cards.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': '#5c636a',
    '--mantine-color-placeholder': '#5c636a',
    [WARNING_TEXT_VAR]: '#b03a0c',
  },
  dark: {
    '--mantine-color-dimmed': '#aaaaaa',
    '--mantine-color-placeholder': '#aaaaaa',
    [WARNING_TEXT_VAR]: 'var(--mantine-color-orange-4)',
  },
});
