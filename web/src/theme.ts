import { type CSSVariablesResolver, createTheme } from '@mantine/core';

/**
 * Mantine's defaults with text contrast raised to WCAG AA (4.5:1): white on the default blue (shade 6)
 * is 3.6:1 and the dimmed grey on white 3.3:1; blue 8 gives 5:1 and grey 7 about 7.5:1.
 */
export const theme = createTheme({
  primaryShade: { light: 8, dark: 8 },
  // Every page's title (h1) in one size, the signed-in shell's and the informational pages' alike.
  headings: { sizes: { h1: { fontSize: '1.875rem', lineHeight: '1.3' } } },
  components: {
    // Toasts (components/toast.ts). A long word, a short URL above all, wraps instead of being cut off at
    // the toast's edge on a phone; the message under a title is grey 7, not Mantine's grey 6 (3.3:1);
    // the close button says what it does. A plain object, not Notification.extend(): importing the
    // component here would pull it into the entry chunk, ahead of the toasts' own lazy chunk.
    Notification: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } },
      styles: {
        title: { overflowWrap: 'anywhere' },
        description: { overflowWrap: 'anywhere', color: 'var(--mantine-color-dimmed)' },
      },
    },
    // Every dialog's close button says what it does (Mantine's has no label): a screen reader would read
    // "button" and nothing more.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    // A dialog's and a drawer's title bar is a <div>, not Mantine's <header>: outside <main> a <header> is a
    // second banner landmark, and a page has one (the shell's).
    ModalHeader: { defaultProps: { component: 'div' } },
    // A spinner is a <span>: its label ("Loading") needs a role to be read, and `status` is what it is.
    Loader: { defaultProps: { role: 'status' } },
    DrawerHeader: { defaultProps: { component: 'div' } },
  },
});

/**
 * The light variant's text (a green "ok" badge) in the colours whose darkest shade is still under 4.5:1 on
 * their light background (3.8:1 for green), darkened by a third: about 6.5:1.
 */
const lightVariantTexts = Object.fromEntries(
  ['green', 'teal', 'lime', 'yellow', 'orange', 'cyan'].map((color) => [
    `--mantine-color-${color}-light-color`,
    `color-mix(in srgb, var(--mantine-color-${color}-9), black 30%)`,
  ]),
);

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // A field's error text: red 8 (4.9:1), whatever order the stylesheets arrive in (red 6 is 3.3:1).
    '--mantine-color-error': 'var(--mantine-color-red-8)',
    ...lightVariantTexts,
  },
  dark: {},
});
