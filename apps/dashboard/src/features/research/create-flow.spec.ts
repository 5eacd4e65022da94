import { ApiError } from '../../api/errors';
import type { Research } from '../../api/research-types';
import type { ResearchCreateValues } from '../../lib/validation';
import { toProfileValues } from '../../lib/profile-form';
import { toTestReportValues } from '../../lib/report-form';
import { runCreateFlow, toResearchCreate, type CreateFlowApi } from './create-flow';
import { PROFILE_FIELDS } from '../../test/research-fixture';

const RESEARCH: Research = {
  id: 'r1',
  name: 'Drzwi EI60',
  start_at: '2025-11-22T08:00:00.000Z',
  end_at: '2025-11-22T11:00:00.000Z',
  is_radiance: false,
  is_furnance: false,
  is_pressure: true,
  ...PROFILE_FIELDS,
};

const file = (name: string, bytes: number) => new File([new Uint8Array(bytes)], name);

function values(overrides: Partial<ResearchCreateValues> = {}): ResearchCreateValues {
  return {
    name: ' Drzwi EI60 ',
    start_at: '2025-11-22T09:00',
    end_at: '2025-11-22T12:00',
    is_radiance: false,
    is_furnance: false,
    is_pressure: true,
    furnace_id: null,
    profile: toProfileValues(null),
    classification_to_clients: true,
    report: toTestReportValues(null),
    links: [{ url: 'https://a.example/1' }, { url: 'https://a.example/2' }],
    configs: [{ image: file('a.png', 300), config: file('a.txt', 100), check: { ok: true, markers: 3 } }],
    emails: [{ email: 'client@example.com' }],
    ...overrides,
  };
}

function fakeApi(overrides: Partial<CreateFlowApi> = {}) {
  const calls: string[] = [];
  const api: CreateFlowApi = {
    createResearch: jest.fn(async (body) => {
      calls.push(`research ${body.name}`);
      return RESEARCH;
    }),
    addUrl: jest.fn(async (id, url) => {
      calls.push(`url ${id} ${url}`);
      return { id: 'u', url, research_id: id };
    }),
    uploadConfig: jest.fn(async (id, image, config, onProgress) => {
      onProgress({ loaded: 200, total: 400 });
      onProgress({ loaded: 400, total: 400 });
      calls.push(`config ${id} ${image.name} ${config.name}`);
      return {
        id: 'c',
        research_id: id,
        image_filename: image.name,
        config_filename: config.name,
        image_width: 1,
        image_height: 1,
      };
    }),
    addEmail: jest.fn(async (id, email) => {
      calls.push(`email ${id} ${email}`);
      return { id: 'e', research_id: id, email, lang: 'pl' as const, is_sent: false };
    }),
    ...overrides,
  };
  return { api, calls };
}

describe('the create-research flow', () => {
  it('creates the research, then each link, config and e-mail with its id, reporting upload progress', async () => {
    const { api, calls } = fakeApi();
    const progress: number[] = [];
    const research = await runCreateFlow(values(), api, { onProgress: (p) => progress.push(p) });
    expect(research).toBe(RESEARCH);
    expect(calls).toEqual([
      'research Drzwi EI60',
      'url r1 https://a.example/1',
      'url r1 https://a.example/2',
      'config r1 a.png a.txt',
      'email r1 client@example.com',
    ]);
    expect(api.createResearch).toHaveBeenCalledWith(
      expect.objectContaining({
        start_at: new Date(2025, 10, 22, 9, 0).toISOString(),
        end_at: new Date(2025, 10, 22, 12, 0).toISOString(),
        is_pressure: true,
      }),
    );
    expect(progress).toEqual([0, 50, 100, 100]);
  });

  it('reports a failed item and goes on with the rest', async () => {
    const { api, calls } = fakeApi({ addUrl: jest.fn(() => Promise.reject(new ApiError(422, { detail: 'bad url' }))) });
    const failures: string[] = [];
    await runCreateFlow(values(), api, { onStepError: (step) => failures.push(step) });
    expect(failures).toEqual(['url', 'url']);
    expect(calls).toContain('email r1 client@example.com');
  });

  it('stops at once when the session is over (401/403)', async () => {
    const { api } = fakeApi({ addUrl: jest.fn(() => Promise.reject(new ApiError(401, null))) });
    await expect(runCreateFlow(values(), api)).rejects.toMatchObject({ status: 401 });
    expect(api.addEmail).not.toHaveBeenCalled();
  });

  it('sends the test profile: rise basis by default, I2 for a door standard without a class, empty numbers as null', () => {
    expect(toResearchCreate(values())).not.toHaveProperty('insulation');
    expect(toResearchCreate(values())).toMatchObject({
      standard: 'EN_1363_1',
      heating_curve: 'iso834',
      criteria_basis: 'rise',
      planned_duration_min: null,
      pressure_target_pa: null,
      pressure_tolerance_pa: null,
    });
    const door = values({
      profile: {
        ...toProfileValues(null),
        standard: 'EN_1634_1',
        insulation: null,
        planned_duration_min: 60,
        pressure_target_pa: 20,
        pressure_tolerance_pa: 3,
      },
    });
    expect(toResearchCreate(door)).toMatchObject({
      standard: 'EN_1634_1',
      insulation: 'I2',
      planned_duration_min: 60,
      pressure_target_pa: 20,
      pressure_tolerance_pa: 3,
    });
    // A class left from a door standard is dropped for a wall.
    const wall = values({
      profile: { ...toProfileValues(null), standard: 'EN_1364_1', insulation: 'I1', criteria_basis: 'absolute' },
    });
    expect(toResearchCreate(wall)).toMatchObject({ standard: 'EN_1364_1', criteria_basis: 'absolute' });
    expect(toResearchCreate(wall)).not.toHaveProperty('insulation');
  });

  it('sends whether clients see the classification and the test report fields, a blank one as null', () => {
    const report = {
      ...toTestReportValues(null),
      report_number: ' LAB/2026/017 ',
      report_date: '2026-03-14',
      sponsor: 'Drzwi-Pol',
      ambient_temperature_c: 19.5 as const,
      deviations: '   ',
    };
    expect(toResearchCreate(values({ classification_to_clients: false, report }))).toMatchObject({
      classification_to_clients: false,
      report_number: 'LAB/2026/017',
      report_date: '2026-03-14',
      sponsor: 'Drzwi-Pol',
      ambient_temperature_c: 19.5,
      pressure_height_mm: null,
      deviations: null,
      specimen_description: null,
    });
  });
});
