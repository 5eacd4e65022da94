import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { ApiConfig } from '@furnace/config';
import { furnaceTopic } from '@furnace/contracts';
import { APP_CONFIG } from '../core/tokens';
import { FurnacesRepository } from './furnaces.repository';
import { type DynsecCommand, DynsecClient, type DynsecResponse } from './mosquitto-dynsec';

/** The usernames of furnace DAQ credentials: `daq-{code}` (the installation account `daq` is not one). */
const FURNACE_DAQ_USERNAME = /^daq-[a-z0-9][a-z0-9-]*$/;

/** Answers that mean "already done": every operation may be repeated, by this instance or another. */
const ALREADY = new Set([
  'Client already exists',
  'Role already exists',
  'ACL with this topic already exists',
  'Client not found',
  'Role not found',
]);

/**
 * Mirrors the furnace DAQ credentials into Mosquitto's dynamic security plugin when the API
 * administers one (MQTT_DYNSEC_USERNAME; docs/behaviour.md §16): each credential becomes the client
 * `daq-{code}` with its password (Mosquitto hashes it) and the role `daq-{code}`, which may publish
 * to `lab/{code}/data` and nothing else (the plugin's default denies every other publish and every
 * subscription). Unconfigured, every method does nothing: the embedded broker reads the database.
 *
 * Every operation is idempotent, so that several API instances may repeat each other's. Failures are
 * logged as warnings, never with a password; at each (re)connection `reconcile` removes the clients
 * whose credential is gone and names the credentials the broker lacks (they need a rotation: the
 * password is not kept in clear, so they cannot be recreated).
 */
@Injectable()
export class DaqBrokerAccounts implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('DaqBrokerAccounts');
  private client?: DynsecClient;
  private reconciling?: Promise<void>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: ApiConfig,
    private readonly repo: FurnacesRepository,
  ) {}

  /** True when the API administers the broker's DAQ clients. */
  get enabled(): boolean {
    return this.config.dynsec !== undefined;
  }

  onApplicationBootstrap(): void {
    const options = this.config.dynsec;
    if (!options) return;
    this.client = new DynsecClient(
      options,
      () => {
        this.reconciling = this.reconcile().catch((e: Error) =>
          this.logger.warn(`The broker's DAQ clients were not reconciled: ${e.message}`),
        );
      },
      (message) => this.logger.warn(`Dynamic security administrator connection: ${message}`),
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.reconciling;
    await this.client?.close();
  }

  /**
   * The credential `username` (of the furnace coded `code`) now has `password`: creates its client and
   * role, or sets the password of the existing client and closes the connections signed in with it
   * (`disableClient` then `enableClient`, in the same message: nothing signs in between). Throws when the
   * broker cannot be reached or refuses (its message names no secret): the caller changes nothing then.
   */
  async issued(username: string, code: string, password: string): Promise<void> {
    const client = this.client;
    if (!client) return;
    const created = await client.send([
      { command: 'createRole', rolename: username },
      {
        command: 'addRoleACL',
        rolename: username,
        acltype: 'publishClientSend',
        topic: furnaceTopic(code),
        allow: true,
        priority: 0,
      },
      // Reads nothing, whatever the plugin's defaults: what it subscribes to delivers nothing.
      { command: 'addRoleACL', rolename: username, acltype: 'publishClientReceive', topic: '#', allow: false },
      { command: 'addRoleACL', rolename: username, acltype: 'subscribePattern', topic: '#', allow: false },
      { command: 'createClient', username, password, roles: [{ rolename: username, priority: 0 }] },
    ]);
    failures(created);
    if (created.at(-1)?.error === 'Client already exists') {
      failures(
        await client.send([
          { command: 'setClientPassword', username, password },
          { command: 'disableClient', username },
          { command: 'enableClient', username },
        ]),
      );
    }
  }

  /** The credential `username` is withdrawn: its client and role are deleted, which closes its connections. */
  async removed(username: string): Promise<void> {
    await this.run(`remove ${username} from the broker`, async (client) => {
      failures(await client.send(removal(username)));
    });
  }

  /**
   * Deletes the broker's `daq-{code}` clients whose credential no longer exists, and warns of each
   * credential the broker lacks. The broker's list is read before the database's, so that a client
   * created meanwhile (after its credential was committed) is never taken for a stray.
   */
  async reconcile(): Promise<void> {
    const client = this.client;
    if (!client) return;
    const [listed] = await client.send([{ command: 'listClients', verbose: false, count: -1 }]);
    failures([listed!]);
    const inBroker = new Set(
      ((listed!.data as { clients?: unknown[] } | undefined)?.clients ?? []).filter(
        (name): name is string => typeof name === 'string' && FURNACE_DAQ_USERNAME.test(name),
      ),
    );
    const issued = new Set([...(await this.repo.credentials()).values()].map((c) => c.username));
    const stray = [...inBroker].filter((name) => !issued.has(name));
    if (stray.length) {
      failures(await client.send(stray.flatMap(removal)));
      this.logger.log(`Removed ${stray.length} broker client(s) whose DAQ credential is gone: ${stray.join(', ')}`);
    }
    const missing = [...issued].filter((name) => !inBroker.has(name)).sort();
    if (missing.length)
      this.logger.warn(
        `The broker lacks the DAQ credential(s) ${missing.join(', ')}: rotate them (Furnaces page) to give them to it`,
      );
  }

  private async run(what: string, action: (client: DynsecClient) => Promise<void>): Promise<void> {
    if (!this.client) return;
    try {
      await action(this.client);
    } catch (error) {
      this.logger.warn(`Could not ${what}: ${(error as Error).message}`);
    }
  }
}

function removal(username: string): DynsecCommand[] {
  return [
    { command: 'deleteClient', username },
    { command: 'deleteRole', rolename: username },
  ];
}

/** Throws the first answer that is an error other than "already done"; its message names no secret. */
function failures(responses: DynsecResponse[]): void {
  const failed = responses.find((r) => r.error !== undefined && !ALREADY.has(r.error));
  if (failed) throw new Error(`${failed.command}: ${failed.error}`);
}
