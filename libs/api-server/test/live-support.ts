import { type DaqPayload, encodeBusMessage, researchChannel } from '@furnace/contracts';
import { TokenService } from '../src/auth/token.service';
import { metricsRegistry } from '../src/metrics/registry';
import type { TestApi } from './harness';

// What the live-stream tests of the API share (a research's client e-mails and markers are in @furnace/testing).

/** A client's viewer token for one research, signed as the API signs it. */
export function viewerTokenFor(api: TestApi, emailId: string, researchId: string): string {
  return api.app.get(TokenService).viewerToken(emailId, researchId);
}

export function publishFrame(api: TestApi, researchId: string, payload: DaqPayload): Promise<void> {
  return api.bus.publish(
    researchChannel(researchId),
    encodeBusMessage({ type: 'frame', research_id: researchId, payload }),
  );
}

/** The value of a metric of this process (summed over series matching `labels`). */
export async function metric(name: string, labels: Record<string, string> = {}): Promise<number> {
  const values = (await metricsRegistry.getSingleMetric(name)?.get())?.values ?? [];
  return values
    .filter((v) => Object.entries(labels).every(([k, value]) => v.labels[k] === value))
    .reduce((sum, v) => sum + v.value, 0);
}
