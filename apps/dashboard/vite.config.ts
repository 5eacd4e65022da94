import { fileURLToPath } from 'node:url';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

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
  ],
  resolve: {
    alias: {
      '@furnace/contracts': here('../../libs/contracts/src/index.ts'),
      '@furnace/api-client': here('../../libs/api-client/src/index.ts'),
    },
  },
  server: {
    port: Number(process.env.DASHBOARD_PORT ?? 5173),
    proxy: { '/api': { target: apiTarget, changeOrigin: true, ws: true } },
  },
  build: {
    outDir: here('./dist'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 900,
  },
});
