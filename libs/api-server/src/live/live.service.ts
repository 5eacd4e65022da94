import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  type BusMessage,
  busToLiveMessage,
  type CriteriaView,
  RecentTimes,
  encodeLiveMessage,
  isClientStatusMessage,
  type LiveStatusData,
  parseBusMessage,
} from '@furnace/contracts';
import { type Audience, CriteriaKeeper } from '../criteria/criteria-keeper';
import { liveMetrics } from './live.metrics';
import { LiveRepository } from './live.repository';

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
  /** How many of a research's latest frame times are remembered to drop a redelivered frame. */
  recentFrames: number;
  /**
   * After a bus outage, frames are read back from the database from this long (s of test time)
   * before the newest one forwarded, so that a frame of another ingest that had not yet arrived
   * when the bus went down is sent too (those already sent are recognised and skipped).
   */
  backfillOverlapSeconds: number;
  /** At most this many frames are read back per research after a bus outage. */
  backfillMaxFrames: number;
}

const LIVE_LIMITS = Symbol('LIVE_LIMITS');

const DEFAULT_LIVE_LIMITS: LiveLimits = {
  // ~50 frames of 1024 channels, ~2 500 of 60: far more than a healthy connection ever holds.
  slowViewerBytes: 1024 * 1024,
  maxConsecutiveDrops: 50,
  // ~100 s at 10 Hz: far more than two ingests' frames ever cross by.
  recentFrames: 1024,
  backfillOverlapSeconds: 10,
  // 10 minutes at 10 Hz: of a longer outage the rest is in the history (a page reload shows it).
  backfillMaxFrames: 6000,
};

export interface Viewer {
  readonly researchId: string;
  /** Which criteria it is sent: the lab's, or those the observations visible to clients give. */
  readonly audience: Audience;
  /** A CRITERIA message went out to it (the one of its opening is then not sent: it would be older). */
  criteriaSent: boolean;
  /** Messages skipped because the socket was backed up. */
  dropped: number;
  consecutiveDrops: number;
  /** Disconnected for staying blocked: it is sent and counted nothing more while its socket closes (which takes a turn of the event loop or more, and a read-back sends thousands of frames in one). */
  terminated: boolean;
  readonly socket: ViewerSocket;
}

/** A place reserved for one viewer of one research: the bus subscription is active while any lease is held. */
export interface LiveLease {
  readonly researchId: string;
  /** Starts delivering to the socket, and sends it the research's criteria as they stand. */
  attach(socket: ViewerSocket, audience?: Audience): Viewer;
  /** Ends the lease (and the delivery to its viewer, if attached); the last one unsubscribes. Idempotent. */
  release(): void;
}

class Channel {
  readonly viewers = new Set<Viewer>();
  /** Leases held, attached or not. */
  refs = 0;
  /** `time` of the newest frame forwarded (or stored, before any was forwarded). */
  lastTime: number | null = null;
  unsubscribe: (() => Promise<void>) | null = null;
  ready!: Promise<void>;
  /** Times of the frames sent lately. */
  readonly recent: RecentTimes;
  /** A read-back after a bus outage is running. */
  backfilling = false;

  constructor(recentFrames: number) {
    this.recent = new RecentTimes(recentFrames);
  }
}

/**
 * Fan-out of one research's bus channel to its viewers on this API instance. The instance
 * subscribes when the research's first viewer arrives and unsubscribes after its last leaves.
 * Each message is encoded once and the same bytes go to every viewer, the moment it arrives:
 * nothing waits on a timer. Frames of several ingests sharing the DAQ topic can arrive out of
 * time order (each publishes after its own write commits); the dashboard places each frame by its
 * `time` (docs/performance.md, "No hold, ordering on the client"). A frame whose time was sent lately (a redelivery) is
 * dropped and counted. After a bus outage every channel reads the frames it missed back from the
 * database and sends them. A viewer whose socket is backed up skips messages (counted) instead of
 * growing memory, and is disconnected if it stays blocked.
 */
@Injectable()
export class LiveService {
  private readonly channels = new Map<string, Channel>();
  private readonly limits: LiveLimits;
  /**
   * The CRITERIA message of each views object the keeper answers with (the same object for every viewer
   * until the criteria change): a crowd's viewers opening at once get bytes encoded once, not a
   * serialisation each (1 000 at once held the live frames for seconds).
   */
  private readonly encodedCriteria = new WeakMap<CriteriaView, Buffer>();

  constructor(
    private readonly repository: LiveRepository,
    @Optional() @Inject(LIVE_LIMITS) limits?: Partial<LiveLimits>,
    @Optional() private readonly criteria?: CriteriaKeeper,
  ) {
    this.limits = { ...DEFAULT_LIVE_LIMITS, ...limits };
    this.repository.onBusReconnect(() => void this.backfillAll());
  }

  /** Reserves a viewer's place, subscribing to the research's bus channel if it is the first. Rejects if the bus cannot subscribe. */
  async open(researchId: string): Promise<LiveLease> {
    let channel = this.channels.get(researchId);
    if (!channel) {
      const created = new Channel(this.limits.recentFrames);
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
      attach: (socket, audience = 'staff') => {
        const attached: Viewer = {
          researchId,
          audience,
          criteriaSent: false,
          dropped: 0,
          consecutiveDrops: 0,
          terminated: false,
          socket,
        };
        viewer = attached;
        // A lease released before its socket was attached (the client left during the handshake) delivers nothing.
        if (released) return attached;
        held.viewers.add(attached);
        liveMetrics.viewers.inc();
        void this.sendCriteria(held, attached);
        return attached;
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
    return {
      research_id: researchId,
      server_time: new Date().toISOString(),
      last_time: this.channels.get(researchId)?.lastTime ?? null,
    };
  }

  /** Viewers of each research connected to this instance (the lab overview adds up every instance's). */
  viewersByResearch(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const [researchId, channel] of this.channels)
      if (channel.viewers.size > 0) counts.set(researchId, channel.viewers.size);
    return counts;
  }

  /** Viewers connected to this instance. */
  get viewerCount(): number {
    let n = 0;
    for (const channel of this.channels.values()) n += channel.viewers.size;
    return n;
  }

  /**
   * Disconnects every viewer and ends every subscription (shutdown). `close` ends each viewer's
   * connection (the gateway sends a close frame); without it the sockets are dropped.
   */
  async closeAll(close: (socket: ViewerSocket) => void = (socket) => socket.terminate()): Promise<void> {
    const channels = [...this.channels.values()];
    this.channels.clear();
    liveMetrics.channels.dec(channels.length);
    for (const channel of channels) {
      for (const viewer of channel.viewers) close(viewer.socket);
      liveMetrics.viewers.dec(channel.viewers.size);
      channel.viewers.clear();
      await channel.ready.then(() => channel.unsubscribe?.()).catch(() => undefined);
    }
  }

  /**
   * After the bus lost and regained its server: sends every channel's viewers the frames stored
   * meanwhile, read from the database, in time order. Frames already sent are skipped (the
   * channel remembers its latest times), so a frame that also arrives over the bus goes out once.
   */
  async backfillAll(): Promise<void> {
    await Promise.all([...this.channels.entries()].map(([researchId, channel]) => this.backfill(researchId, channel)));
  }

  // ---------------------------------------------------------------------------------------------

  /** The criteria as they stand, to a viewer that just joined (unless newer ones reached it meanwhile). */
  private async sendCriteria(channel: Channel, viewer: Viewer): Promise<void> {
    if (!this.criteria) return;
    let view: CriteriaView;
    try {
      view = await this.criteria.view(viewer.researchId, viewer.audience);
    } catch {
      // Not computable now (the database is unreachable): the next change brings them.
      liveMetrics.messagesDropped.inc({ reason: 'criteria_unavailable' });
      return;
    }
    if (viewer.criteriaSent || !channel.viewers.has(viewer)) return;
    viewer.criteriaSent = true;
    let bytes = this.encodedCriteria.get(view);
    if (!bytes)
      this.encodedCriteria.set(view, (bytes = Buffer.from(encodeLiveMessage({ event: 'CRITERIA', data: view }))));
    if (this.sendTo(viewer, bytes)) liveMetrics.messagesSent.inc();
  }

  private async backfill(researchId: string, channel: Channel): Promise<void> {
    if (channel.backfilling) return;
    channel.backfilling = true;
    try {
      await channel.ready;
      const since = channel.lastTime === null ? null : channel.lastTime - this.limits.backfillOverlapSeconds;
      const frames = await this.repository.framesSince(researchId, since, this.limits.backfillMaxFrames);
      if (this.channels.get(researchId) !== channel) return;
      let sent = 0;
      for (const payload of frames) {
        if (this.accept(channel, payload.time)) {
          this.forward(channel, { type: 'frame', research_id: researchId, payload });
          sent++;
        }
      }
      liveMetrics.framesBackfilled.inc(sent);
    } catch {
      // The database is unreachable too: the frames are in the history once it is back (a reconnect reloads it).
      liveMetrics.messagesDropped.inc({ reason: 'backfill_failed' });
    } finally {
      channel.backfilling = false;
    }
  }

  private async subscribe(researchId: string, channel: Channel): Promise<void> {
    try {
      channel.unsubscribe = await this.repository.subscribe(researchId, (message) =>
        this.onBusMessage(researchId, channel, message),
      );
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
    if (message.type === 'frame') {
      liveMetrics.framesReceived.inc();
      if (!this.accept(channel, message.payload.time)) {
        liveMetrics.messagesDropped.inc({ reason: 'duplicate' });
        return;
      }
    }
    this.forward(channel, message);
  }

  /** False for a frame already sent (same time); otherwise records it as sent. Never holds it. */
  private accept(channel: Channel, time: number): boolean {
    if (!channel.recent.add(time)) return false;
    if (channel.lastTime === null || time > channel.lastTime) channel.lastTime = time;
    return true;
  }

  private forward(channel: Channel, message: BusMessage): void {
    // Encoded once (once per audience for criteria); every viewer gets these bytes. A change to what
    // clients are not shown (a hidden observation) and the alarms (docs/behaviour.md, "Alarms") reach staff only.
    const data = Buffer.from(encodeLiveMessage(busToLiveMessage(message)));
    const forClients =
      message.type === 'criteria'
        ? Buffer.from(encodeLiveMessage(busToLiveMessage(message, 'client')))
        : (message.type === 'update' && message.staff_only === true) || message.type === 'alarm'
          ? null
          : data;
    let sent = 0;
    for (const viewer of channel.viewers) {
      if (message.type === 'criteria') viewer.criteriaSent = true;
      const bytes = viewer.audience === 'client' ? forClients : data;
      if (bytes !== null && this.sendTo(viewer, bytes)) sent++;
    }
    liveMetrics.messagesSent.inc(sent);
  }

  private sendTo(viewer: Viewer, data: Buffer): boolean {
    if (viewer.terminated) return false;
    if (viewer.socket.bufferedAmount > this.limits.slowViewerBytes) {
      viewer.dropped++;
      viewer.consecutiveDrops++;
      liveMetrics.messagesDropped.inc({ reason: 'slow_viewer' });
      if (viewer.consecutiveDrops >= this.limits.maxConsecutiveDrops) {
        viewer.terminated = true;
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
