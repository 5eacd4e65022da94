import type { ResearchDto, ThermoMarkerDto } from '@furnace/api-client';
import * as api from '@furnace/api-client';
import type { DaqPayload } from '@furnace/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import Konva from 'konva/lib/Core';
import { renderUi } from '../../test/render';
import { PROFILE_FIELDS } from '../../test/research-fixture';
import { stubCanvasForFile } from '../live/testing/canvas-stub';
import { type Label, LABEL_SHAPE_NAME } from '../live/thermo-canvas';
import { ReplayPanel } from './ReplayPanel';
import { ReplayPlayer } from './replay-player';

jest.mock('@furnace/api-client', () => ({
  researchGet: jest.fn(),
  thermoList: jest.fn(),
  thermoResearchMarkers: jest.fn(),
  thermoImage: jest.fn(),
  historyRead: jest.fn(),
  criteriaObservations: jest.fn(),
  criteriaExclusions: jest.fn(),
  criteriaCriteriaOf: jest.fn(),
}));

const mocked = api as unknown as Record<
  | 'researchGet'
  | 'thermoList'
  | 'thermoResearchMarkers'
  | 'thermoImage'
  | 'historyRead'
  | 'criteriaObservations'
  | 'criteriaExclusions'
  | 'criteriaCriteriaOf',
  jest.Mock
>;
const ok = <T,>(data: T) => Promise.resolve({ data, error: undefined, response: { ok: true, status: 200 } });
const fail = (status: number) =>
  Promise.resolve({ data: undefined, error: { detail: 'no' }, response: { ok: false, status } });

const RESEARCH_ID = '3f1e1c9a-8d3b-4a6e-9f0e-1b2c3d4e5f60';
const RESEARCH: ResearchDto = {
  id: RESEARCH_ID,
  name: 'Ściana EI60',
  start_at: '2026-03-01T08:00:00Z',
  end_at: '2026-03-01T10:00:00Z',
  is_radiance: false,
  is_furnance: true,
  is_pressure: false,
  ...PROFILE_FIELDS,
};
const marker = (thermo_id: number, type_name: ThermoMarkerDto['type_name']): ThermoMarkerDto => ({
  id: `m${thermo_id}`,
  config_id: 'cfg',
  thermo_id,
  name: `T${thermo_id}`,
  type_name,
  color_hex: '#E53935',
  item_x: 40 * thermo_id,
  item_y: 100,
  item_size: 12,
  label_x: 40 * thermo_id,
  label_y: 70,
  label_width: 60,
  label_height: 24,
});

/** 0 … 3600 s: pk 600 + t/10, T1 ('Tśr i Tmax') 20 + t/10, T2 ('Tmax') 25. */
const frameAt = (t: number): DaqPayload => ({ time: t, pk: 600 + t / 10, thermocouples_out: [20 + t / 10, 25] });

stubCanvasForFile();

beforeEach(() => {
  jest.clearAllMocks();
  mocked.researchGet.mockImplementation(() => ok(RESEARCH));
  mocked.thermoList.mockImplementation(() =>
    ok({
      data: [
        {
          id: 'cfg',
          research_id: RESEARCH_ID,
          image_filename: 'sciana.png',
          config_filename: 'sciana.txt',
          image_width: 800,
          image_height: 500,
        },
      ],
    }),
  );
  mocked.thermoResearchMarkers.mockImplementation(() => ok({ data: [marker(1, 'Tśr i Tmax'), marker(2, 'Tmax')] }));
  mocked.thermoImage.mockImplementation(() => ok(new Blob(['png'], { type: 'image/png' })));
  // No history: the engine runs over the window's frames; T0 is the server's (taken before ignition).
  mocked.historyRead.mockImplementation(() => fail(500));
  mocked.criteriaObservations.mockImplementation(() => ok({ data: [] }));
  mocked.criteriaExclusions.mockImplementation(() => ok({ data: [] }));
  mocked.criteriaCriteriaOf.mockImplementation(() => ok({ t0: 20, t0_source: 'auto' }));
});

const canvasTexts = () =>
  ((Konva.stages.at(-1)?.findOne(`.${LABEL_SHAPE_NAME}`)?.getAttr('labels') ?? []) as Label[]).map((l) => l.text);

describe('the replay panel', () => {
  it('shows the moment the slider is set to: time, side panel values and the temperatures on the photo', async () => {
    const player = new ReplayPlayer(0, 3600, (from, to) => {
      const frames: DaqPayload[] = [];
      for (let t = Math.ceil(from); t <= Math.min(to, 3600); t++) frames.push(frameAt(t));
      return Promise.resolve(frames);
    });
    const { user } = await renderUi(<ReplayPanel researchId={RESEARCH_ID} player={player} />);
    const panel = await screen.findByTestId('replay');
    expect(screen.getByRole('heading', { name: 'Odtwarzanie' })).toBeInTheDocument();
    await waitFor(() => expect(within(panel).getByTestId('replay-time')).toHaveTextContent('00:00:00 z 01:00:00'));
    await waitFor(() => expect(within(panel).getByTestId('measurement-pk-value')).toHaveTextContent('600.0'));
    // No live connection on a replay, no language select of its own.
    expect(within(panel).queryByTestId('connection-status')).not.toBeInTheDocument();
    expect(within(panel).getByTestId('thermo-mode')).toHaveAttribute('aria-pressed', 'true');

    const slider = within(panel).getByRole('slider', { name: 'Chwila badania' });
    act(() => slider.focus());
    await user.keyboard('{End}');
    await waitFor(() => expect(within(panel).getByTestId('replay-time')).toHaveTextContent('01:00:00 z 01:00:00'));
    await waitFor(() => expect(within(panel).getByTestId('elapsed-value')).toHaveTextContent('01:00:00'));
    expect(within(panel).getByTestId('measurement-pk-value')).toHaveTextContent('960.0');
    await waitFor(() => expect(canvasTexts()).toEqual(['380.0', '25.0']));
    // The criteria of that moment: the server's T0, T1's rise over it.
    await waitFor(() => expect(within(panel).getByTestId('criteria-t0-value')).toHaveTextContent('20.0 °C'));
    const category = panel.querySelector('[data-category="Tśr i Tmax"]') as HTMLElement;
    await waitFor(() => expect(within(category).getByTestId('category-max')).toHaveTextContent('+360.0 K · 380.0 °C'));

    await user.keyboard('{Home}');
    await waitFor(() => expect(canvasTexts()).toEqual(['20.0', '25.0']));
    await waitFor(() => expect(within(category).getByTestId('category-max')).toHaveTextContent('+0.0 K · 20.0 °C'));
    player.dispose();
  });

  it('plays and pauses from its button, at the chosen speed', async () => {
    const player = new ReplayPlayer(0, 3600, () => Promise.resolve([frameAt(0)]));
    const { user } = await renderUi(<ReplayPanel researchId={RESEARCH_ID} player={player} />);
    const panel = await screen.findByTestId('replay');
    await user.click(within(panel).getByText('60×'));
    expect(player.getState().clock.speed).toBe(60);
    await user.click(within(panel).getByRole('button', { name: 'Odtwórz' }));
    expect(player.getState().clock.playing).toBe(true);
    await user.click(within(panel).getByRole('button', { name: 'Wstrzymaj' }));
    expect(player.getState().clock.playing).toBe(false);
    player.dispose();
  });
});
