import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@furnace/testing';
import { MAIN, type RunningProcess, startSystemProcess } from '../system';

export const SUPERUSER = { email: 'boss@lab.example', password: 'boss-password-1' };

export interface SecuredSystem {
  proc: RunningProcess;
  mqttPort: number;
  dataDir: string;
  token: string;
  /** Creates a research running now; returns its id. */
  research(name?: string): Promise<string>;
  /** Rows of the research's history CSV (without the header). */
  rows(researchId: string): Promise<string[]>;
}

/** The built system started as `npm start` starts it, with a research-capable superuser signed in. */
export async function startSecuredSystem(env: Record<string, string> = {}): Promise<SecuredSystem> {
  const dataDir = mkdtempSync(join(tmpdir(), 'furnace-security-'));
  const mqttPort = await freePort();
  const proc = await startSystemProcess({
    DATA_DIR: dataDir,
    MQTT_PORT: String(mqttPort),
    FIRST_SUPERUSER: SUPERUSER.email,
    FIRST_SUPERUSER_PASSWORD: SUPERUSER.password,
    ...env,
  });
  const login = await fetch(`${proc.url}/api/v1/login/access-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: SUPERUSER.email, password: SUPERUSER.password }).toString(),
  });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
  const { access_token: token } = (await login.json()) as { access_token: string };
  const auth = { authorization: `Bearer ${token}` };
  return {
    proc,
    mqttPort,
    dataDir,
    token,
    async research(name = 'Przegroda EI 60') {
      const res = await fetch(`${proc.url}/api/v1/research/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth },
        body: JSON.stringify({
          name,
          start_at: new Date(Date.now() - 60_000).toISOString(),
          end_at: new Date(Date.now() + 3600_000).toISOString(),
        }),
      });
      if (res.status !== 200) throw new Error(`research not created: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { id: string }).id;
    },
    async rows(researchId) {
      const res = await fetch(`${proc.url}/api/v1/research/${researchId}/history.csv?decimal=point`, { headers: auth });
      if (res.status !== 200) throw new Error(`history: ${res.status}`);
      return (await res.text())
        .replace(/^\uFEFF/, '')
        .split(/\r?\n/)
        .slice(1)
        .filter((l) => l.trim() !== '');
    },
  };
}

/** Polls until `probe` returns true or `ms` pass; returns the last answer. */
export async function eventually(probe: () => Promise<boolean>, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 200));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An IPv4 address of this machine that is not loopback (what another machine on the network would connect to). */
export function externalAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return undefined;
}

/**
 * The TCP sockets a process listens on, with their local address (Linux: the process's socket inodes
 * matched against /proc/net/tcp and tcp6), sorted by port.
 */
export function listeningSockets(pid: number): { address: string; port: number }[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // closed meanwhile
    }
  }
  const found: { address: string; port: number }[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // f[1] local address:port (hex, IPv4 bytes little-endian), f[3] state (0A = LISTEN), f[9] inode
      if (f.length <= 9 || f[3] !== '0A' || !inodes.has(f[9]!)) continue;
      const [hex, port] = f[1]!.split(':');
      const address =
        hex!.length === 8
          ? Buffer.from(hex!, 'hex').reverse().join('.')
          : hex === '00000000000000000000000000000000'
            ? '::'
            : hex === '00000000000000000000000001000000'
              ? '::1'
              : hex!;
      found.push({ address, port: parseInt(port!, 16) });
    }
  }
  return found.sort((a, b) => a.port - b.port);
}

/** One started system for a test file: started before its tests, stopped cleanly (exit 0) after them. */
export function useSecuredSystem(env: Record<string, string> = {}): () => SecuredSystem {
  let sys: SecuredSystem | undefined;
  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: npm test builds it first (tsc -b)`);
    sys = await startSecuredSystem(env);
  });
  afterAll(async () => {
    expect(await sys?.proc.stop()).toBe(0);
  });
  return () => {
    if (!sys) throw new Error('the system did not start');
    return sys;
  };
}
