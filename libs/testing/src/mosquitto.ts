import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { ROOT } from './app-processes';
import { freePort } from './ports';

/** PATH with the sbin directories, where Debian installs mosquitto. */
export function withSbin(): NodeJS.ProcessEnv {
  return { ...process.env, PATH: `${process.env.PATH ?? ''}:/usr/local/sbin:/usr/sbin:/sbin` };
}

/** Where the docker image has the dynamic security plugin (infra/mosquitto/mosquitto.conf names it). */
const IMAGE_PLUGIN = '/usr/lib/mosquitto_dynamic_security.so';

/** The plugin on this machine: Debian puts it under the architecture's lib directory. */
function dynsecPlugin(): string | undefined {
  const arch = spawnSync('sh', ['-c', 'gcc -dumpmachine 2>/dev/null || uname -m'], { encoding: 'utf8' }).stdout.trim();
  return [
    IMAGE_PLUGIN,
    `/usr/lib/${arch}/mosquitto_dynamic_security.so`,
    '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so',
    '/usr/lib/aarch64-linux-gnu/mosquitto_dynamic_security.so',
    '/usr/local/lib/mosquitto_dynamic_security.so',
  ].find((path) => existsSync(path));
}

let missing: { reason: string | undefined } | undefined;

/**
 * Why this machine cannot run the deployment's Mosquitto (the binaries or the dynamic security
 * plugin are not installed), for a test's skip message; undefined when it can.
 */
export function mosquittoMissing(): string | undefined {
  if (!missing) {
    const binary = ['mosquitto', 'mosquitto_passwd'].find(
      (bin) => spawnSync('sh', ['-c', `command -v ${bin}`], { env: withSbin() }).status !== 0,
    );
    missing = {
      reason: binary
        ? `${binary} is not installed here`
        : dynsecPlugin()
          ? undefined
          : 'the mosquitto dynamic security plugin (mosquitto_dynamic_security.so) is not installed here',
    };
  }
  return missing.reason;
}

export interface OwnMosquitto {
  url: string;
  port: number;
  /** Its files: auth/ (password file, acl), data/ (the plugin's clients). */
  dir: string;
  /** The passwords the entrypoint was given, as docker-compose passes them from .env. */
  passwords: { daq: string; ingest: string; api: string };
  log(): string;
  stop(): Promise<void>;
}

/**
 * A Mosquitto of the calling test only, on a free port of 127.0.0.1, run as the docker-compose layout
 * runs it: infra/mosquitto/mosquitto.conf (its paths, listener and plugin path substituted, nothing
 * else) through infra/mosquitto/entrypoint.sh. `extraAcl` is appended to the deployment's acl and
 * `extraUsers` added to the password file (e.g. an observer allowed to read everything).
 * The machine's shared broker is never touched. Check mosquittoMissing() first.
 */
export async function startOwnMosquitto(
  options: { extraAcl?: string; extraUsers?: Record<string, string> } = {},
): Promise<OwnMosquitto> {
  const reason = mosquittoMissing();
  if (reason) throw new Error(reason);
  const plugin = dynsecPlugin()!;
  const dir = mkdtempSync(join(tmpdir(), 'furnace-mosquitto-'));
  // Started as root, mosquitto switches to its own user, which must reach these files.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const conf = substitute(readFileSync(join(ROOT, 'infra/mosquitto/mosquitto.conf'), 'utf8'), [
    ['/mosquitto/auth/', `${dir}/auth/`],
    ['/mosquitto/data/', `${dir}/data/`],
    [/^listener 1883$/m, `listener ${port} 127.0.0.1`],
    [/^persistence true$/m, 'persistence false'],
    [IMAGE_PLUGIN, plugin],
  ]);
  writeFileSync(join(dir, 'mosquitto.conf'), conf, { mode: 0o644 });
  const acl = `${readFileSync(join(ROOT, 'infra/mosquitto/acl'), 'utf8')}\n${options.extraAcl ?? ''}\n`;
  writeFileSync(join(dir, 'acl'), acl, { mode: 0o644 });
  const passwords = {
    daq: 'daq-password-for-this-test',
    ingest: 'ingest-password-for-this-test',
    api: 'api-password-for-this-test',
  };
  const auth = `${dir}/auth`;
  const extra = Object.entries(options.extraUsers ?? {})
    .map(([user, password]) => `mosquitto_passwd -b ${auth}/passwd ${user} ${password} && `)
    .join('');
  // The entrypoint as in the container; the command it hands over to adds the extra users, then runs mosquitto.
  const command = `${extra}{ if [ "$(id -u)" = 0 ] && id mosquitto >/dev/null 2>&1; then chown -R mosquitto:mosquitto ${auth}; fi; } && exec mosquitto -c ${dir}/mosquitto.conf`;
  let log = '';
  const broker: ChildProcess = spawn('sh', [join(ROOT, 'infra/mosquitto/entrypoint.sh'), 'sh', '-c', command], {
    env: {
      ...withSbin(),
      MOSQUITTO_AUTH_DIR: auth,
      MOSQUITTO_DATA_DIR: join(dir, 'data'),
      MOSQUITTO_ACL_SOURCE: join(dir, 'acl'),
      MQTT_DAQ_PASSWORD: passwords.daq,
      MQTT_INGEST_PASSWORD: passwords.ingest,
      MQTT_DYNSEC_PASSWORD: passwords.api,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  broker.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  broker.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const url = `mqtt://127.0.0.1:${port}`;
  const stop = async () => {
    if (broker.exitCode === null && broker.signalCode === null) {
      const exited = new Promise((resolve) => broker.once('exit', resolve));
      broker.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      // The ingest's account signs in once the broker has read its files.
      const probe = await mqtt.connectAsync(url, {
        username: 'ingest',
        password: passwords.ingest,
        reconnectPeriod: 0,
        connectTimeout: 2000,
      });
      await probe.endAsync(true);
      break;
    } catch (error) {
      if (Date.now() > deadline || broker.exitCode !== null) {
        await stop();
        throw new Error(`mosquitto did not start: ${(error as Error).message}\n${log}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { url, port, dir, passwords, log: () => log, stop };
}

/** Applies each replacement, failing when one finds nothing: the deployment's file changed under the test. */
function substitute(text: string, replacements: [string | RegExp, string][]): string {
  return replacements.reduce((acc, [from, to]) => {
    const next = typeof from === 'string' ? acc.replaceAll(from, to) : acc.replace(from, to);
    if (next === acc && from !== to) throw new Error(`infra/mosquitto/mosquitto.conf has no ${String(from)}`);
    return next;
  }, text);
}

/**
 * An MQTT client signed in to `url` (none without a username): resolves once connected, rejects with the broker's
 * refusal (e.g. "Not authorized"); never reconnects. The caller ends it.
 */
export function connectClient(url: string, username?: string, password?: string): Promise<mqtt.MqttClient> {
  return new Promise((resolve, reject) => {
    const client = mqtt.connect(url, {
      username,
      password,
      clientId: `furnace-test-${username ?? 'anonymous'}-${Math.random().toString(16).slice(2, 10)}`,
      protocolVersion: 4,
      reconnectPeriod: 0,
      connectTimeout: 5000,
    });
    client.once('connect', () => resolve(client));
    client.once('error', (error) => {
      client.end(true);
      reject(error);
    });
  });
}
