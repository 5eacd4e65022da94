import { createTheme, type MantineColorsTuple } from '@mantine/core';

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
  primaryShade: { light: 6, dark: 7 },
  colors: { brand },
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
