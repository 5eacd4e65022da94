import type { MqttClient } from 'mqtt';
import { daqTopic } from '@furnace/contracts';
import {
  connectPublisher,
  connectViewer,
  dropSession,
  insertResearch,
  login,
  quietLogger,
  startTestBroker,
  streamUrl,
  SUPERUSER,
  type TestBroker,
  type TestViewer,
  waitFor,
} from '@furnace/testing';
import { startIngest, type RunningIngest } from '@furnace/ingest';
import { ingestConfig } from '@furnace/ingest/testing';
import { startTestApi, type TestApi } from '@furnace/api-server/testing';

describe('GET /api/v1/metrics', () => {
  let api: TestApi;
  let broker: TestBroker;
  let ingest: RunningIngest;
  let publisher: MqttClient;
  let viewer: TestViewer;
  let clientId = '';

  beforeAll(async () => {
    // Behind a proxy on this machine (TRUST_PROXY names it), as a deployment behind nginx is.
    [api, broker] = await Promise.all([startTestApi({ TRUST_PROXY: '127.0.0.1,::1' }), startTestBroker()]);
    publisher = await connectPublisher(broker.url);
  });
  afterAll(async () => {
    await viewer?.close();
    await publisher?.endAsync();
    await ingest?.stop();
    if (clientId) await dropSession(broker.url, clientId).catch(() => undefined);
    await api?.close();
    await broker?.stop();
  });

  it('shows the whole pipeline of the process in Prometheus format (the ingest of `npm start` included), to this machine only', async () => {
    const researchId = await insertResearch(api.db.url);
    const config = ingestConfig(api.db.url, broker);
    clientId = config.mqttClientId;
    // No registry given: the process's default one, as `npm start` runs it.
    ingest = startIngest(config, {
      databaseUrl: api.db.url,
      bus: api.bus,
      logger: quietLogger(),
      options: { topics: [daqTopic(researchId)], sharedGroup: clientId },
    });
    await ingest.ready;
    viewer = await connectViewer(
      streamUrl(api, researchId, { token: await login(api, SUPERUSER.email, SUPERUSER.password) }),
    );
    await publisher.publishAsync(daqTopic(researchId), JSON.stringify({ time: 1, pk: 20 }), { qos: 1 });
    await publisher.publishAsync(daqTopic(researchId), '{"time": "soon"}', { qos: 1 });
    await waitFor('the frame live', () => viewer.times.length === 1);
    // And the criteria it changed (CRITERIA: the stream's other messages).
    await waitFor('the criteria of the frame', () =>
      viewer.messages.some((m) => m.event === 'CRITERIA' && m.data.elapsed === 1),
    );

    const res = await api.http.get('/api/v1/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain;.*version=0\.0\.4/);
    const text = res.text;
    for (const line of [
      'furnace_ingest_frames_stored_total 1',
      'furnace_ingest_frames_refused_total{reason="invalid_payload"} 1',
      'furnace_ingest_buffer_frames 0',
      'furnace_ingest_database_up 1',
      'furnace_live_viewers 1',
      // Every message the viewer received (it sent no STATUS, so it got no answer to one).
      `furnace_live_messages_sent_total ${viewer.messages.length}`,
      'furnace_live_messages_dropped_total{reason="slow_viewer"} 0',
    ]) {
      expect(text).toContain(line);
    }
    for (const name of [
      'furnace_ingest_batch_write_seconds_bucket',
      'furnace_bus_lag_seconds_bucket',
      'furnace_bus_probe_age_seconds',
      'process_cpu_user_seconds_total',
    ]) {
      expect(text).toContain(name);
    }

    // Through the proxy (trusted through TRUST_PROXY) no client reads them, on the internet or on the LAN
    // (without METRICS_TOKEN they are this machine's only: security/metrics-access.int-spec.ts).
    for (const client of ['203.0.113.9', '10.1.2.3']) {
      const relayed = await api.http.get('/api/v1/metrics').set('X-Forwarded-For', client);
      expect([client, relayed.status]).toEqual([client, 403]);
      expect(relayed.body).toEqual({
        detail: 'Metrics are served to this machine only, or with the bearer token METRICS_TOKEN',
      });
    }
  });
});
