// Applies the stored theme before the first paint (no light flash for dark-mode users). A file of
// its own rather than an inline script: the Content-Security-Policy allows scripts from this origin only.
/* global window, document */
(function () {
  try {
    var stored = localStorage.getItem('theme');
    var scheme =
      stored === 'dark' || stored === 'light'
        ? stored
        : stored === 'system'
          ? window.matchMedia('(prefers-color-scheme: dark)').matches
            ? 'dark'
            : 'light'
          : 'light';
    document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
  } catch {
    document.documentElement.setAttribute('data-mantine-color-scheme', 'light');
  }
})();
