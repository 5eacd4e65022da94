import { client } from '@furnace/api-client';
import { getToken } from './auth-token';

let configured = false;

/** Same-origin calls (the API serves the dashboard; `vite` proxies /api) with the staff bearer token. */
export function configureApiClient(): void {
  if (configured) return;
  configured = true;
  client.setConfig({ baseUrl: '' });
  client.interceptors.request.use((request) => {
    const token = getToken();
    if (token && !request.headers.has('Authorization')) request.headers.set('Authorization', `Bearer ${token}`);
    return request;
  });
}
