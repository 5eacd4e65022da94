import { EventEmitter } from 'node:events';
import Redis from 'ioredis';

export type BusHandler = (message: string) => void;
/** A message on any channel whose name starts with a prefix. */
export type BusPrefixHandler = (channel: string, message: string) => void;

/**
 * Live fan-out between processes: the ingest publishes each accepted frame on its research's
 * channel; every API instance subscribes to the channels its viewers watch. Delivery is at most
 * once (pub/sub); durability is the database's job.
 */
export interface Bus {
  publish(channel: string, message: string): Promise<void>;
  /** Resolves once the subscription is active; returns the function that ends it. */
  subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>>;
  /** Every channel whose name starts with `prefix` (Redis PSUBSCRIBE `prefix*`); resolves once active. */
  subscribePrefix(prefix: string, handler: BusPrefixHandler): Promise<() => Promise<void>>;
  /** Called after the bus lost and regained its server, so callers can resynchronise. */
  onReconnect(listener: () => void): void;
  readonly kind: 'in-process' | 'redis';
  close(): Promise<void>;
}

/** One process runs ingest and API: the bus is an event emitter. */
export class InProcessBus implements Bus {
  readonly kind = 'in-process' as const;
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  private readonly prefixHandlers = new Set<{ prefix: string; handler: BusPrefixHandler }>();

  async publish(channel: string, message: string): Promise<void> {
    // Delivered on the next tick, as a broker would: a publisher never runs subscribers' code inline.
    setImmediate(() => {
      this.emitter.emit(channel, message);
      for (const { prefix, handler } of this.prefixHandlers) if (channel.startsWith(prefix)) handler(channel, message);
    });
  }

  async subscribePrefix(prefix: string, handler: BusPrefixHandler): Promise<() => Promise<void>> {
    const entry = { prefix, handler };
    this.prefixHandlers.add(entry);
    return async () => {
      this.prefixHandlers.delete(entry);
    };
  }

  async subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    this.emitter.on(channel, handler);
    return async () => {
      this.emitter.off(channel, handler);
    };
  }

  onReconnect(): void {
    // Never disconnects.
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
    this.prefixHandlers.clear();
  }
}

/** Redis pub/sub: one connection publishes, one subscribes (a subscribed connection can do nothing else). */
export class RedisBus implements Bus {
  readonly kind = 'redis' as const;
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly handlers = new Map<string, Set<BusHandler>>();
  private readonly prefixHandlers = new Map<string, Set<BusPrefixHandler>>();
  private readonly reconnectListeners: (() => void)[] = [];
  private wasReady = false;

  constructor(url: string, onError: (e: Error) => void = () => undefined) {
    const options = { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: true, autoResubscribe: true };
    this.pub = new Redis(url, { ...options, connectionName: 'furnace-pub' });
    this.sub = new Redis(url, { ...options, connectionName: 'furnace-sub' });
    this.pub.on('error', onError);
    this.sub.on('error', onError);
    this.sub.on('message', (channel: string, message: string) => {
      const set = this.handlers.get(channel);
      if (set) for (const h of set) h(message);
    });
    this.sub.on('pmessage', (pattern: string, channel: string, message: string) => {
      const set = this.prefixHandlers.get(pattern);
      if (set) for (const h of set) h(channel, message);
    });
    this.sub.on('ready', () => {
      if (this.wasReady) for (const l of this.reconnectListeners) l();
      this.wasReady = true;
    });
  }

  async connect(): Promise<this> {
    await Promise.all([this.pub.connect(), this.sub.connect()]);
    return this;
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.pub.publish(channel, message);
  }

  async subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      await this.sub.subscribe(channel);
    }
    set.add(handler);
    return async () => {
      const current = this.handlers.get(channel);
      if (!current) return;
      current.delete(handler);
      if (current.size === 0) {
        this.handlers.delete(channel);
        await this.sub.unsubscribe(channel).catch(() => undefined);
      }
    };
  }

  async subscribePrefix(prefix: string, handler: BusPrefixHandler): Promise<() => Promise<void>> {
    // Only the prefix may act as a pattern: its own glob characters are escaped.
    const pattern = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
    let set = this.prefixHandlers.get(pattern);
    if (!set) {
      set = new Set();
      this.prefixHandlers.set(pattern, set);
      await this.sub.psubscribe(pattern);
    }
    set.add(handler);
    return async () => {
      const current = this.prefixHandlers.get(pattern);
      if (!current) return;
      current.delete(handler);
      if (current.size === 0) {
        this.prefixHandlers.delete(pattern);
        await this.sub.punsubscribe(pattern).catch(() => undefined);
      }
    };
  }

  onReconnect(listener: () => void): void {
    this.reconnectListeners.push(listener);
  }

  async close(): Promise<void> {
    this.handlers.clear();
    this.prefixHandlers.clear();
    this.pub.disconnect();
    this.sub.disconnect();
  }
}

/** The bus the configuration asks for: Redis when a URL is given, otherwise in-process. */
export async function createBus(redisUrl: string | undefined, onError?: (e: Error) => void): Promise<Bus> {
  if (!redisUrl) return new InProcessBus();
  return new RedisBus(redisUrl, onError).connect();
}
