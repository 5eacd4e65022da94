import { config } from 'zod';

// zod compiles object parsers with `new Function` where it may, and finds out by trying: under the
// dashboard's Content-Security-Policy (no 'unsafe-eval') that try is a violation. It interprets instead.
config({ jitless: true });
