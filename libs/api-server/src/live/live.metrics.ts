import { Counter, Gauge } from 'prom-client';
import { metricsRegistry, sharedMetric } from '../metrics/registry';

const registers = [metricsRegistry];

/** The live stream's metrics (process-wide). */
export const liveMetrics = {
  viewers: sharedMetric(
    'furnace_live_viewers',
    () => new Gauge({ name: 'furnace_live_viewers', help: 'WebSocket viewers connected to this process', registers }),
  ),
  channels: sharedMetric(
    'furnace_live_channels',
    () =>
      new Gauge({
        name: 'furnace_live_channels',
        help: 'Researches with at least one viewer (bus subscriptions)',
        registers,
      }),
  ),
  framesReceived: sharedMetric(
    'furnace_live_frames_received_total',
    () =>
      new Counter({
        name: 'furnace_live_frames_received_total',
        help: 'Frames received from the bus for researches with viewers',
        registers,
      }),
  ),
  messagesSent: sharedMetric(
    'furnace_live_messages_sent_total',
    () =>
      new Counter({
        name: 'furnace_live_messages_sent_total',
        help: 'Messages written to viewer sockets (one per viewer)',
        registers,
      }),
  ),
  messagesDropped: sharedMetric('furnace_live_messages_dropped_total', () => {
    const c = new Counter({
      name: 'furnace_live_messages_dropped_total',
      help: 'Messages not sent: slow_viewer (socket backlog over the limit), duplicate (a frame whose time was sent lately: a redelivery), invalid (bad bus message), backfill_failed (the frames missed during a bus outage could not be read back)',
      labelNames: ['reason'] as const,
      registers,
    });
    for (const reason of ['slow_viewer', 'duplicate', 'invalid', 'backfill_failed']) c.inc({ reason }, 0);
    return c;
  }),
  framesBackfilled: sharedMetric(
    'furnace_live_frames_backfilled_total',
    () =>
      new Counter({
        name: 'furnace_live_frames_backfilled_total',
        help: 'Frames read back from the database and sent after a bus outage',
        registers,
      }),
  ),
  slowViewersClosed: sharedMetric(
    'furnace_live_slow_viewers_closed_total',
    () =>
      new Counter({
        name: 'furnace_live_slow_viewers_closed_total',
        help: 'Viewers disconnected because their socket stayed blocked',
        registers,
      }),
  ),
  upgradesRefused: sharedMetric(
    'furnace_live_upgrades_refused_total',
    () =>
      new Counter({
        name: 'furnace_live_upgrades_refused_total',
        help: 'Stream connections refused, by HTTP status',
        labelNames: ['status'] as const,
        registers,
      }),
  ),
  streamsRevoked: sharedMetric(
    'furnace_live_streams_revoked_total',
    () =>
      new Counter({
        name: 'furnace_live_streams_revoked_total',
        help: 'Streams closed because their access was revoked or expired',
        registers,
      }),
  ),
};
