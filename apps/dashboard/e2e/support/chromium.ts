import { existsSync } from 'node:fs';

/** Debian's Chromium (apt-get install -y chromium); CHROMIUM_PATH points elsewhere. Never `npx playwright install`. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_MISSING = !existsSync(CHROMIUM_PATH);
export const CHROMIUM_REASON = `Chromium not found at ${CHROMIUM_PATH}: install Debian's build (apt-get install -y chromium); never npx playwright install`;
