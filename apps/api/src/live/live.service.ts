import { Inject, Injectable, Optional } from '@nestjs/common';
import { type BusMessage, busToLiveMessage, encodeLiveMessage, isClientStatusMessage, type LiveStatusData, parseBusMessage } from '@furnace/contracts';
import { liveMetrics } from './live.metrics';
import { LiveRepository } from './live.repository';
import { SourceCensus } from './source-census';

/** What the service needs of a viewer's socket (a `ws` WebSocket in production, a fake in small tests). */
export interface ViewerSocket {
  /** Bytes queued for this viewer and not yet written to the network. */
  readonly bufferedAmount: number;
  /** Sends one text message (already-encoded UTF-8 bytes). */
  send(data: Buffer): void;
  /** Drops the connection at once (a closing handshake cannot get through a full buffer). */
  terminate(): void;
}

export interface LiveLimits {
  /** A viewer whose backlog exceeds this skips messages until it drains (bytes). */
  slowViewerBytes: number;
  /** A viewer that skipped this many messages in a row is disconnected: its dashboard reconnects and reloads history. */
  maxConsecutiveDrops: number;
  /**
   * While several ingests share the DAQ topic, each frame is held this long, so that one committed
   * a little later by another instance still goes out in time order (ms).
   */
  reorderWindowMs: number;
  /** Frames heard after start-up or a silence before a lone ingest's frames go out without the window. */
  learningFrames: number;
}

export const LIVE_LIMITS = Symbol('LIVE_LIMITS');

export const DEFAULT_LIVE_LIMITS: LiveLimits = {
  // ~50 frames of 1024 channels, ~2 500 of 60: far more than a healthy connection ever holds.
  slowViewerBytes: 1024 * 1024,
  maxConsecutiveDrops: 50,
  // A few DAQ intervals at 10 Hz; far above one batch write, the usual difference between instances.
  reorderWindowMs: 250,
  learningFrames: 8,
};


export interface Viewer {
  readonly researchId: string;
  /** Messages skipped because the socket was backed up. */
  dropped: number;
  consecutiveDrops: number;
  readonly socket: ViewerSocket;
}

/** A place reserved for one viewer of one research: the bus subscription is active while any lease is held. */
export interface LiveLease {
  readonly researchId: string;
  /** Starts delivering to the socket. */
  attach(socket: ViewerSocket): Viewer;
  /** Ends the lease (and the delivery to its viewer, if attached); the last one unsubscribes. Idempotent. */
  release(): void;
}

interface HeldFrame {
  readonly time: number;
  readonly message: BusMessage;
  /** performance.now() at arrival. */
  readonly at: number;
}

class Channel {
  readonly viewers = new Set<Viewer>();
  /** Leases held, attached or not. */
  refs = 0;
  /** `time` of the newest frame forwarded (or stored, before any was forwarded). */
  lastTime: number | null = null;
  unsubscribe: (() => Promise<void>) | null = null;
  ready!: Promise<void>;
  /** Frames waiting in the reorder window, sorted by time. */
  held: HeldFrame[] = [];
  releaseTimer: NodeJS.Timeout | null = null;
}

/**
 * Fan-out of one research's bus channel to its viewers on this API instance. The instance
 * subscribes when the research's first viewer arrives and unsubscribes after its last leaves.
 * Each message is encoded once and the same bytes go to every viewer. Frames go out in time order:
 * from a lone ingest they arrive in order and are forwarded at once; while several ingests share the
 * DAQ topic (each publishes after its own write commits, so their frames can cross; see
 * SourceCensus) each frame waits `reorderWindowMs` and they leave sorted. A frame not newer than the last one forwarded
 * (a redelivery, or later than the window) is dropped and counted: it is in the history, and never
 * reaches a chart twice or backwards. A viewer whose socket is backed up skips messages (counted)
 * instead of growing memory, and is disconnected if it stays blocked.
 */
@Injectable()
export class LiveService {
  private readonly channels = new Map<string, Channel>();
  private readonly limits: LiveLimits;
  private readonly sources: SourceCensus;

  constructor(
    private readonly repository: LiveRepository,
    @Optional() @Inject(LIVE_LIMITS) limits?: Partial<LiveLimits>,
  ) {
    this.limits = { ...DEFAULT_LIVE_LIMITS, ...limits };
    this.sources = new SourceCensus(30_000, this.limits.learningFrames);
  }

  /** Reserves a viewer's place, subscribing to the research's bus channel if it is the first. Rejects if the bus cannot subscribe. */
  async open(researchId: string): Promise<LiveLease> {
    let channel = this.channels.get(researchId);
    if (!channel) {
      const created = new Channel();
      channel = created;
      this.channels.set(researchId, created);
      liveMetrics.channels.inc();
      created.ready = this.subscribe(researchId, created);
    }
    channel.refs++;
    const held = channel;
    let viewer: Viewer | null = null;
    let released = false;
    const lease: LiveLease = {
      researchId,
      attach: (socket) => {
        viewer = { researchId, dropped: 0, consecutiveDrops: 0, socket };
        // A lease released before its socket was attached (the client left during the handshake) delivers nothing.
        if (released) return viewer;
        held.viewers.add(viewer);
        liveMetrics.viewers.inc();
        return viewer;
      },
      release: () => {
        if (released) return;
        released = true;
        if (viewer && held.viewers.delete(viewer)) liveMetrics.viewers.dec();
        this.release(researchId, held);
      },
    };
    try {
      await held.ready;
    } catch (error) {
      lease.release();
      throw error;
    }
    return lease;
  }

  /** A message from a viewer: STATUS is answered; anything else is ignored. */
  onClientMessage(viewer: Viewer, text: string): void {
    if (!isClientStatusMessage(text)) return;
    this.sendTo(viewer, Buffer.from(encodeLiveMessage({ event: 'STATUS', data: this.status(viewer.researchId) })));
  }

  status(researchId: string): LiveStatusData {
    return { research_id: researchId, server_time: new Date().toISOString(), last_time: this.channels.get(researchId)?.lastTime ?? null };
  }

  /** Viewers connected to this instance. */
  get viewerCount(): number {
    let n = 0;
    for (const channel of this.channels.values()) n += channel.viewers.size;
    return n;
  }

  /** Disconnects every viewer and ends every subscription (shutdown). */
  async closeAll(): Promise<void> {
    const channels = [...this.channels.values()];
    this.channels.clear();
    liveMetrics.channels.dec(channels.length);
    for (const channel of channels) {
      this.clearHeld(channel);
      for (const viewer of channel.viewers) viewer.socket.terminate();
      liveMetrics.viewers.dec(channel.viewers.size);
      channel.viewers.clear();
      await channel.ready.then(() => channel.unsubscribe?.()).catch(() => undefined);
    }
  }

  // ---------------------------------------------------------------------------------------------

  private async subscribe(researchId: string, channel: Channel): Promise<void> {
    try {
      channel.unsubscribe = await this.repository.subscribe(researchId, (message) => this.onBusMessage(researchId, channel, message));
    } catch (error) {
      this.forget(researchId, channel);
      throw error;
    }
    // After subscribing: a frame stored before is in the history, one published after arrives here.
    const stored = await this.repository.lastTime(researchId).catch(() => null);
    if (stored !== null && (channel.lastTime === null || stored > channel.lastTime)) channel.lastTime = stored;
  }

  private release(researchId: string, channel: Channel): void {
    channel.refs--;
    if (channel.refs > 0) return;
    this.forget(researchId, channel);
    void channel.ready.then(() => channel.unsubscribe?.()).catch(() => undefined);
  }

  private forget(researchId: string, channel: Channel): void {
    if (this.channels.get(researchId) !== channel) return;
    this.clearHeld(channel);
    this.channels.delete(researchId);
    liveMetrics.channels.dec();
  }

  private onBusMessage(researchId: string, channel: Channel, raw: string): void {
    const parsed = parseBusMessage(raw);
    if (!parsed.ok || parsed.value.research_id !== researchId) {
      liveMetrics.messagesDropped.inc({ reason: 'invalid' });
      return;
    }
    const message = parsed.value;
    if (message.type !== 'frame') return this.forward(channel, message);
    liveMetrics.framesReceived.inc();
    const time = message.payload.time;
    if ((channel.lastTime !== null && time <= channel.lastTime) || channel.held.some((h) => h.time === time)) {
      liveMetrics.messagesDropped.inc({ reason: 'stale' });
      return;
    }
    const now = performance.now();
    const reorder = this.sources.heard(message.source, now);
    if (!reorder && channel.held.length === 0) {
      channel.lastTime = time;
      return this.forward(channel, message);
    }
    const index = channel.held.findIndex((h) => h.time > time);
    channel.held.splice(index === -1 ? channel.held.length : index, 0, { time, message, at: now });
    this.releaseDue(channel);
  }

  /** Forwards, in time order, every held frame up to the last one whose window has passed; re-arms the timer. */
  private releaseDue(channel: Channel): void {
    if (channel.releaseTimer) clearTimeout(channel.releaseTimer);
    channel.releaseTimer = null;
    const now = performance.now();
    let due = -1;
    for (let i = 0; i < channel.held.length; i++) if (now - channel.held[i]!.at >= this.limits.reorderWindowMs) due = i;
    for (const frame of channel.held.splice(0, due + 1)) {
      channel.lastTime = frame.time;
      this.forward(channel, frame.message);
    }
    if (channel.held.length === 0) return;
    const next = Math.min(...channel.held.map((h) => h.at)) + this.limits.reorderWindowMs - now;
    channel.releaseTimer = setTimeout(() => this.releaseDue(channel), Math.max(1, next));
    channel.releaseTimer.unref();
  }

  private clearHeld(channel: Channel): void {
    if (channel.releaseTimer) clearTimeout(channel.releaseTimer);
    channel.releaseTimer = null;
    channel.held = [];
  }

  private forward(channel: Channel, message: BusMessage): void {
    // Encoded once; every viewer gets these bytes.
    const data = Buffer.from(encodeLiveMessage(busToLiveMessage(message)));
    let sent = 0;
    for (const viewer of channel.viewers) if (this.sendTo(viewer, data)) sent++;
    liveMetrics.messagesSent.inc(sent);
  }

  private sendTo(viewer: Viewer, data: Buffer): boolean {
    if (viewer.socket.bufferedAmount > this.limits.slowViewerBytes) {
      viewer.dropped++;
      viewer.consecutiveDrops++;
      liveMetrics.messagesDropped.inc({ reason: 'slow_viewer' });
      if (viewer.consecutiveDrops >= this.limits.maxConsecutiveDrops) {
        liveMetrics.slowViewersClosed.inc();
        viewer.socket.terminate();
      }
      return false;
    }
    viewer.consecutiveDrops = 0;
    viewer.socket.send(data);
    return true;
  }
}
