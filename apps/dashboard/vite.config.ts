import { fileURLToPath } from 'node:url';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const apiTarget = process.env.API_URL ?? 'http://localhost:8000';

// The dashboard: built into dist/ (served by the API at / with SPA fallback); `vite` proxies /api (REST and
// the live WebSocket) to a running API.
export default defineConfig({
  root: here('.'),
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: here('./src/routes'),
      generatedRouteTree: here('./src/routeTree.gen.ts'),
      routeFileIgnorePattern: '\\.spec\\.tsx?$',
    }),
    react(),
    precompress(),
  ],
  resolve: {
    alias: {
      '@furnace/contracts': here('../../libs/contracts/src/index.ts'),
      '@furnace/criteria': here('../../libs/criteria/src/index.ts'),
      '@furnace/text': here('../../libs/text/src/index.ts'),
      '@furnace/api-client': here('../../libs/api-client/src/index.ts'),
    },
  },
  server: {
    port: Number(process.env.DASHBOARD_PORT ?? 5173),
    proxy: { '/api': { target: apiTarget, changeOrigin: true, ws: true } },
  },
  // Every <script>/<style>/<link> of index.html and a <meta property="csp-nonce"> get this placeholder as
  // their nonce; the API replaces it with each response's nonce (libs/api-server/src/core/security-headers.ts),
  // and Mantine reads it from the meta element for the <style> elements it injects.
  html: { cspNonce: '__CSP_NONCE__' },
  build: {
    outDir: here('./dist'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 900,
    // dist/.vite/manifest.json: which chunks each route loads (the benchmark sums the public view's); not served (a dot folder).
    manifest: true,
  },
});
