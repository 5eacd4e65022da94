import { isAuthError } from '../../api/errors';
import type { Research, ResearchCreate, ResearchEmail, ResearchUrl, ThermoConfig } from '../../api/research-types';
import type { UploadProgress } from '../../api/upload';
import { datetimeLocalToIso } from '../../lib/dates';
import type { ResearchCreateValues } from '../../lib/validation';
import { toProfileBody } from '../../lib/profile-form';
import { toTestReportBody } from '../../lib/report-form';

/** The calls the create flow makes; the page passes the real API, tests pass fakes. */
export interface CreateFlowApi {
  createResearch: (body: ResearchCreate) => Promise<Research>;
  addUrl: (researchId: string, url: string) => Promise<ResearchUrl>;
  uploadConfig: (
    researchId: string,
    image: File,
    config: File,
    onProgress: (p: UploadProgress) => void,
  ) => Promise<ThermoConfig>;
  addEmail: (researchId: string, email: string) => Promise<ResearchEmail>;
}

export type CreateStepFailure = 'url' | 'config' | 'email';

export interface CreateFlowHooks {
  /** Overall upload progress of the photo + config pairs, 0–100. */
  onProgress?: (percent: number) => void;
  /** A link, config or e-mail could not be added; the flow goes on with the others. */
  onStepError?: (step: CreateStepFailure, error: unknown) => void;
}

/** The form's values as the API's create body (datetime-local → ISO instants). */
export function toResearchCreate(values: ResearchCreateValues): ResearchCreate {
  return {
    name: values.name.trim(),
    start_at: datetimeLocalToIso(values.start_at) ?? values.start_at,
    end_at: datetimeLocalToIso(values.end_at) ?? values.end_at,
    is_radiance: values.is_radiance,
    is_furnance: values.is_furnance,
    is_pressure: values.is_pressure,
    furnace_id: values.furnace_id,
    ...toProfileBody(values.profile),
    classification_to_clients: values.classification_to_clients,
    ...toTestReportBody(values.report),
  };
}

/**
 * Spec §4: create the research, then each link, config and e-mail with the new id. A failed item
 * is reported and skipped; a 401/403 stops everything (the session is over).
 */
export async function runCreateFlow(
  values: ResearchCreateValues,
  api: CreateFlowApi,
  hooks: CreateFlowHooks = {},
): Promise<Research> {
  const research = await api.createResearch(toResearchCreate(values));

  const step = async (kind: CreateStepFailure, run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (error) {
      if (isAuthError(error)) throw error;
      hooks.onStepError?.(kind, error);
    }
  };

  for (const { url } of values.links) await step('url', () => api.addUrl(research.id, url.trim()));

  const pairs = values.configs.flatMap((pair) =>
    pair.image && pair.config ? [{ image: pair.image, config: pair.config }] : [],
  );
  const totalBytes = pairs.reduce((sum, pair) => sum + pair.image.size + pair.config.size, 0) || 1;
  let doneBytes = 0;
  if (pairs.length > 0) hooks.onProgress?.(0);
  for (const pair of pairs) {
    const pairBytes = pair.image.size + pair.config.size;
    await step('config', () =>
      api.uploadConfig(research.id, pair.image, pair.config, ({ loaded, total }) => {
        const fraction = total > 0 ? Math.min(loaded / total, 1) : 0;
        hooks.onProgress?.(((doneBytes + fraction * pairBytes) / totalBytes) * 100);
      }),
    );
    doneBytes += pairBytes;
    hooks.onProgress?.((doneBytes / totalBytes) * 100);
  }

  for (const { email } of values.emails) await step('email', () => api.addEmail(research.id, email.trim()));
  return research;
}
