import { config } from 'zod';

/*
 * What the dashboard needs to run under its Content-Security-Policy (libs/api-server/src/core/security-headers.ts):
 * no eval, and no <style> element without the response's nonce. Imported first (src/main.tsx).
 */

/** The response's CSP nonce, from <meta property="csp-nonce"> (vite.config.ts html.cspNonce). */
export function cspNonce(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]');
  // Browsers hide a nonce attribute's value from getAttribute once the page has loaded; the property keeps it.
  return meta?.nonce || meta?.content || '';
}

// zod compiles object parsers with `new Function` where it may, and finds out by trying: without
// 'unsafe-eval' that try is a violation. It interprets instead.
config({ jitless: true });

// Mantine's modals, menus and drawers lock scrolling with react-remove-scroll, whose <style> element
// takes its nonce from get-nonce, which falls back to this global.
(globalThis as { __webpack_nonce__?: string }).__webpack_nonce__ = cspNonce();
