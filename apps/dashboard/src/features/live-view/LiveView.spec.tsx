import type { ObservationDto, ResearchDto, ThermoConfigDto, ThermoMarkerDto, UrlDto } from '@furnace/api-client';
import * as api from '@furnace/api-client';
import { QueryClient } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import Konva from 'konva/lib/Core';
import { renderUi } from '../../test/render';
import { MonitorPage } from '../monitor/MonitorPage';
import { PublicLiveView } from './PublicLiveView';
import { STAFF_AUTH } from '../live/StaffLiveGate';
import { StaffLiveView } from './StaffLiveView';
import { liveConfigsQuery, liveResearchQuery } from '../stream/live-queries';
import type { ReadAuth } from '../stream/read-auth';
import { historyKeys, LIVE_HISTORY_POINTS } from '../stream/history-api';
import { stubCanvasForFile } from '../live/testing/canvas-stub';
import { type Label, LABEL_SHAPE_NAME } from '../live/thermo-canvas';
import { FakeSocket } from '../stream/testing/fake-socket';
import { PROFILE_FIELDS } from '../../test/research-fixture';
import type { CriteriaView } from '@furnace/contracts';
import { criteriaSnapshot } from '../../test/criteria-snapshot';

jest.mock('@furnace/api-client', () => ({
  researchViewerToken: jest.fn(),
  liveViewLiveView: jest.fn(),
  streamTicketIssue: jest.fn(),
  researchGet: jest.fn(),
  researchListUrls: jest.fn(),
  thermoList: jest.fn(),
  thermoResearchMarkers: jest.fn(),
  thermoImage: jest.fn(),
  historyRead: jest.fn(),
  criteriaObservations: jest.fn(),
  criteriaExclusions: jest.fn(),
  criteriaCriteriaOf: jest.fn(),
  alarmsList: jest.fn(),
  alarmsAcknowledge: jest.fn(),
}));

// The curves are the charts feature's (ECharts); here only what the live view hands them matters.
const curves = jest.fn();
jest.mock('../live/LiveCurves', () => ({
  __esModule: true,
  default: (props: unknown) => {
    curves(props);
    return <div data-testid="live-curves" />;
  },
}));

const mocked = api as unknown as Record<
  | 'researchViewerToken'
  | 'liveViewLiveView'
  | 'streamTicketIssue'
  | 'researchGet'
  | 'researchListUrls'
  | 'thermoList'
  | 'thermoResearchMarkers'
  | 'thermoImage'
  | 'historyRead'
  | 'criteriaObservations'
  | 'criteriaExclusions'
  | 'criteriaCriteriaOf'
  | 'alarmsList'
  | 'alarmsAcknowledge',
  jest.Mock
>;

const RESEARCH_ID = '3f1e1c9a-8d3b-4a6e-9f0e-1b2c3d4e5f60';
const CODE = '0b9f2b4e-1111-4a6e-9f0e-1b2c3d4e5f60';
const HOUR = 3600_000;

const ok = <T,>(data: T) => Promise.resolve({ data, error: undefined, response: { ok: true, status: 200 } });
const fail = (status: number) =>
  Promise.resolve({ data: undefined, error: { detail: 'no' }, response: { ok: false, status } });

function newResearch(overrides: Partial<ResearchDto> = {}): ResearchDto {
  return {
    id: RESEARCH_ID,
    name: 'Drzwi EI60 – próba 7',
    start_at: new Date(Date.now() - HOUR).toISOString(),
    end_at: new Date(Date.now() + 2 * HOUR).toISOString(),
    is_radiance: true,
    is_furnance: true,
    is_pressure: false,
    ...PROFILE_FIELDS,
    ...overrides,
  };
}

const newConfig = (id: string): ThermoConfigDto => ({
  id,
  research_id: RESEARCH_ID,
  image_filename: `${id}.png`,
  config_filename: `${id}.txt`,
  image_width: 800,
  image_height: 500,
});

function newMarker(
  config_id: string,
  thermo_id: number,
  type_name: ThermoMarkerDto['type_name'],
  color_hex: string,
): ThermoMarkerDto {
  return {
    id: `${config_id}-${thermo_id}`,
    config_id,
    thermo_id,
    name: `T${thermo_id}`,
    type_name,
    color_hex,
    item_x: 40 * thermo_id,
    item_y: 100,
    item_size: 12,
    label_x: 40 * thermo_id,
    label_y: 70,
    label_width: 60,
    label_height: 24,
  };
}

const CONFIGS = [newConfig('cfg-a'), newConfig('cfg-b')];
const MARKERS = [
  newMarker('cfg-a', 1, 'Tśr i Tmax', '#E53935'),
  newMarker('cfg-a', 2, 'Tśr i Tmax', '#E53935'),
  newMarker('cfg-a', 3, 'Tmax', '#1E88E5'),
  newMarker('cfg-b', 4, 'T', '#FB8C00'),
];
const URLS: UrlDto[] = [{ id: 'u1', url: 'https://www.youtube.com/watch?v=aqz-KE-bpKQ', research_id: RESEARCH_ID }];
/** Nothing stored yet. */
const NO_HISTORY = {
  research_id: RESEARCH_ID,
  from: 0,
  to: 0,
  last_time: null,
  frames: 0,
  thermo_ids: [],
  bucket_seconds: 0,
  time: [],
  series: [],
  faults: [],
  ignition_at: null,
};

/** The reads GET …/live-view stands for: none of them is made when a live screen opens. */
const SINGLE_READS = [
  'researchGet',
  'researchListUrls',
  'thermoList',
  'thermoResearchMarkers',
  'criteriaObservations',
  'criteriaExclusions',
  'historyRead',
  'streamTicketIssue',
] as const;

function serve({
  research = newResearch(),
  token = 'tok-1',
  observations = [],
}: { research?: ResearchDto; token?: string; observations?: ObservationDto[] } = {}) {
  mocked.researchViewerToken.mockImplementation(() =>
    ok({ access_token: token, token_type: 'bearer', expires_in: 43200, research_id: RESEARCH_ID }),
  );
  // The live view's bootstrap: the same answers as the single reads, and a ticket of its own in the headers.
  mocked.liveViewLiveView.mockImplementation(() =>
    Promise.resolve({
      data: {
        research,
        urls: URLS,
        configs: CONFIGS,
        markers: MARKERS,
        observations,
        exclusions: [],
        history: NO_HISTORY,
      },
      error: undefined,
      response: {
        ok: true,
        status: 200,
        headers: new Headers({ 'Stream-Ticket': 'ticket-0', 'Stream-Ticket-Expires-In': '30' }),
      },
    }),
  );
  mocked.researchGet.mockImplementation(() => ok(research));
  mocked.streamTicketIssue.mockImplementation(() => ok({ ticket: 'ticket-1', expires_in: 30 }));
  mocked.researchListUrls.mockImplementation(() => ok({ data: URLS }));
  mocked.thermoList.mockImplementation(() => ok({ data: CONFIGS }));
  mocked.thermoResearchMarkers.mockImplementation(() => ok({ data: MARKERS }));
  mocked.thermoImage.mockImplementation(() => ok(new Blob(['png'], { type: 'image/png' })));
  mocked.historyRead.mockImplementation(() => ok(NO_HISTORY));
  mocked.criteriaObservations.mockImplementation(() => ok({ data: observations }));
  mocked.criteriaExclusions.mockImplementation(() => ok({ data: [] }));
  mocked.criteriaCriteriaOf.mockImplementation(() => fail(404));
  mocked.alarmsList.mockImplementation(() => ok({ data: [], count: 0 }));
}

/** d_e outside its tolerance since 12:00, still. */
const OPEN_PERIOD = { from: 720, to: 754, open: true, worst: 12.5, worst_tolerance: 10, worst_time: 754 };

/** A CRITERIA message's view: the engine's snapshot for these markers (the first category at 190.3 / 170.1 °C) and what only the server knows. */
function criteriaView(overrides: Partial<CriteriaView> = {}): CriteriaView {
  const base = criteriaSnapshot();
  return {
    ...base,
    categories: [
      {
        type_name: 'Tśr i Tmax',
        role: { mean: true, max: true, frame: false },
        max: 190.25,
        mean: 170.13,
        max_rise: 170,
        mean_rise: 149.88,
        valid: 2,
        thermocouples: 2,
      },
      {
        type_name: 'Tmax',
        role: { mean: false, max: true, frame: false },
        max: 100,
        mean: 100,
        max_rise: 79.7,
        mean_rise: 79.7,
        valid: 1,
        thermocouples: 1,
      },
      {
        type_name: 'T',
        role: { mean: false, max: false, frame: false },
        max: 30,
        mean: 30,
        max_rise: 9.7,
        mean_rise: 9.7,
        valid: 1,
        thermocouples: 1,
      },
    ],
    ended: false,
    classification_withheld: false,
    ignition_at: '2026-01-01T09:48:00.000Z',
    ...overrides,
  };
}

const canvasTexts = () =>
  ((Konva.stages.at(-1)?.findOne(`.${LABEL_SHAPE_NAME}`)?.getAttr('labels') ?? []) as Label[]).map((l) => ({
    text: l.text,
    visible: l.visible,
  }));

stubCanvasForFile();
const realWebSocket = globalThis.WebSocket;
beforeEach(() => {
  jest.clearAllMocks();
  FakeSocket.all = [];
  globalThis.WebSocket = FakeSocket as unknown as typeof WebSocket;
});
afterEach(() => {
  globalThis.WebSocket = realWebSocket;
});

/** `serveFirst` false: the test has set up the server's answers itself. */
async function openLiveView(options: Parameters<typeof serve>[0] = {}, serveFirst = true) {
  if (serveFirst) serve(options);
  const view = await renderUi(<PublicLiveView researchId={RESEARCH_ID} code={CODE} />);
  expect(await screen.findByRole('heading', { name: 'Drzwi EI60 – próba 7' })).toBeInTheDocument();
  await waitFor(() => expect(screen.getByTestId('thermo-canvas')).toBeInTheDocument());
  await waitFor(() => expect(FakeSocket.all.length).toBeGreaterThan(0));
  const socket = FakeSocket.latest();
  act(() => socket.open());
  return { ...view, socket };
}

describe('the public live view: who sees what', () => {
  it('a missing code shows access denied without asking the server', async () => {
    serve();
    await renderUi(<PublicLiveView researchId={RESEARCH_ID} code="" />);
    expect(screen.getByTestId('live-status')).toHaveAttribute('data-status', 'denied');
    expect(screen.getByText('Brak dostępu')).toBeInTheDocument();
    expect(mocked.researchViewerToken).not.toHaveBeenCalled();
  });

  it('a wrong code (403) shows access denied and nothing of the research', async () => {
    serve();
    mocked.researchViewerToken.mockImplementation(() => fail(403));
    await renderUi(<PublicLiveView researchId={RESEARCH_ID} code={CODE} />);
    expect(await screen.findByText('Brak dostępu')).toBeInTheDocument();
    expect(mocked.liveViewLiveView).not.toHaveBeenCalled();
    expect(mocked.researchGet).not.toHaveBeenCalled();
    expect(screen.queryByText(/Drzwi/)).not.toBeInTheDocument();
  });

  it("a research that does not exist (404) shows the product's texts", async () => {
    serve();
    mocked.researchViewerToken.mockImplementation(() => fail(404));
    await renderUi(<PublicLiveView researchId={RESEARCH_ID} code={CODE} />);
    expect(await screen.findByText('Badanie nie istnieje')).toBeInTheDocument();
    expect(screen.getByText('Upewnij się czy wpisany link jest poprawny.')).toBeInTheDocument();
  });

  it('before start_at: the not-started screen, no stream', async () => {
    serve({
      research: newResearch({
        start_at: new Date(Date.now() + HOUR).toISOString(),
        end_at: new Date(Date.now() + 4 * HOUR).toISOString(),
      }),
    });
    await renderUi(<PublicLiveView researchId={RESEARCH_ID} code={CODE} />);
    expect(await screen.findByText('Badanie jeszcze się nie zaczęło!')).toBeInTheDocument();
    expect(screen.getByText('Prosimy cierpliwie czekać aż link stanie się aktywny.')).toBeInTheDocument();
    expect(screen.queryByText(/Drzwi/)).not.toBeInTheDocument();
    expect(FakeSocket.all).toHaveLength(0);
  });

  it('after end_at: the ended screen', async () => {
    serve({
      research: newResearch({
        start_at: new Date(Date.now() - 4 * HOUR).toISOString(),
        end_at: new Date(Date.now() - HOUR).toISOString(),
      }),
    });
    await renderUi(<PublicLiveView researchId={RESEARCH_ID} code={CODE} />);
    expect(await screen.findByText('Badanie już się zakończyło!')).toBeInTheDocument();
    expect(screen.getByText('Link przestał być aktywny.')).toBeInTheDocument();
  });

  it('reads with the viewer token and opens the stream with a ticket bought with it, never the token', async () => {
    const { socket } = await openLiveView();
    expect(mocked.researchViewerToken).toHaveBeenCalledWith(
      expect.objectContaining({ path: { id: RESEARCH_ID }, body: { code: CODE } }),
    );
    expect(mocked.liveViewLiveView).toHaveBeenCalledWith(
      expect.objectContaining({ path: { id: RESEARCH_ID }, headers: { Authorization: 'Bearer tok-1' } }),
    );
    expect(mocked.thermoImage).toHaveBeenCalledWith(
      expect.objectContaining({ headers: { Authorization: 'Bearer tok-1' } }),
    );
    // The ticket the live view's answer brought, bought with the viewer token.
    expect(socket.url).toBe(`ws://localhost/api/v1/research/dane/stream/${RESEARCH_ID}?ticket=ticket-0`);
    expect(socket.url).not.toContain('tok-1');
    expect(socket.sent).toEqual(['STATUS']);
  });

  it('a live view refused (404: no such research, 403: the code was revoked) shows the same screens as a refused read', async () => {
    for (const [status, text] of [
      [404, 'Badanie nie istnieje'],
      [403, 'Brak dostępu'],
    ] as const) {
      serve();
      mocked.liveViewLiveView.mockImplementation(() => fail(status));
      const view = await renderUi(<PublicLiveView researchId={RESEARCH_ID} code={CODE} />);
      expect(await screen.findByText(text)).toBeInTheDocument();
      expect(screen.queryByText(/Drzwi/)).not.toBeInTheDocument();
      expect(FakeSocket.all).toHaveLength(0);
      view.unmount();
    }
    for (const name of SINGLE_READS) expect(mocked[name]).not.toHaveBeenCalled();
  });

  it('an expired viewer token (401) is exchanged again and the reads retried with the new one', async () => {
    serve();
    let tokens = 0;
    mocked.researchViewerToken.mockImplementation(() => {
      tokens++;
      return ok({ access_token: `tok-${tokens}`, token_type: 'bearer', expires_in: 43200, research_id: RESEARCH_ID });
    });
    const answer = mocked.liveViewLiveView.getMockImplementation()!;
    mocked.liveViewLiveView.mockImplementation((options: { headers: Record<string, string> }) =>
      options.headers.Authorization === 'Bearer tok-1' ? fail(401) : answer(options),
    );
    await renderUi(<PublicLiveView researchId={RESEARCH_ID} code={CODE} />);
    expect(await screen.findByRole('heading', { name: 'Drzwi EI60 – próba 7' })).toBeInTheDocument();
    expect(tokens).toBe(2);
    expect(mocked.liveViewLiveView).toHaveBeenCalledTimes(2);
    expect(mocked.liveViewLiveView).toHaveBeenLastCalledWith(
      expect.objectContaining({ headers: { Authorization: 'Bearer tok-2' } }),
    );
  });
});

/** The API calls the page made, by name. */
const calledApi = () =>
  Object.entries(mocked)
    .filter(([, fn]) => jest.isMockFunction(fn) && fn.mock.calls.length > 0)
    .map(([name]) => name)
    .sort();

/** Lets the page make whatever it would make next. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 50)));

describe('opening a live screen: one request for everything it shows first', () => {
  it("a client's: the code's exchange, GET …/live-view, the photo, the stream with the ticket it brought; UPDATEs refetch one resource each", async () => {
    const { socket, queryClient } = await openLiveView();
    expect(await screen.findByTestId('live-curves')).toBeInTheDocument();
    await settle();
    expect(calledApi()).toEqual(['liveViewLiveView', 'researchViewerToken', 'thermoImage']);
    expect(mocked.liveViewLiveView).toHaveBeenCalledTimes(1);
    expect(mocked.liveViewLiveView).toHaveBeenCalledWith(
      expect.objectContaining({
        path: { id: RESEARCH_ID },
        query: { points: 750 },
        headers: { Authorization: 'Bearer tok-1' },
      }),
    );
    expect(mocked.thermoImage).toHaveBeenCalledTimes(1);
    expect(socket.url).toContain('?ticket=ticket-0');
    // The curves' history is where they read it (they are not drawn here).
    const viewer: ReadAuth = { kind: 'viewer', researchId: RESEARCH_ID, token: 'tok-1' };
    expect(queryClient.getQueryData(historyKeys.series(viewer, RESEARCH_ID, { points: LIVE_HISTORY_POINTS }))).toEqual(
      NO_HISTORY,
    );

    // What staff change afterwards is read resource by resource, as the stream says.
    mocked.researchGet.mockImplementation(() => ok(newResearch({ name: 'Drzwi EI60 – próba 8' })));
    act(() => socket.receive({ event: 'UPDATE', data: 'RESEARCH' }));
    expect(await screen.findByRole('heading', { name: 'Drzwi EI60 – próba 8' })).toBeInTheDocument();
    await waitFor(() => expect(mocked.criteriaExclusions).toHaveBeenCalledTimes(1));
    act(() => socket.receive({ event: 'UPDATE', data: 'OBSERVATION' }));
    await waitFor(() => expect(mocked.criteriaObservations).toHaveBeenCalledTimes(1));
    act(() => socket.receive({ event: 'UPDATE', data: 'LIVESTREAM' }));
    await waitFor(() => expect(mocked.researchListUrls).toHaveBeenCalledTimes(1));
    act(() => socket.receive({ event: 'UPDATE', data: 'THERMOCOUPLE' }));
    await waitFor(() => expect(mocked.thermoList).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(mocked.thermoResearchMarkers).toHaveBeenCalledTimes(1));
    await settle();
    expect(mocked.researchGet).toHaveBeenCalledTimes(1);
    expect(mocked.researchGet).toHaveBeenCalledWith(
      expect.objectContaining({ headers: { Authorization: 'Bearer tok-1' } }),
    );
    expect(mocked.liveViewLiveView).toHaveBeenCalledTimes(1);
    expect(mocked.streamTicketIssue).not.toHaveBeenCalled();
    expect(mocked.historyRead).not.toHaveBeenCalled();
  });

  it("staff's: GET …/live-view with the session, the photo, the stream with the ticket it brought", async () => {
    serve();
    // What another screen (the replay) left in the cache a while ago is not read again either.
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    queryClient.setQueryData(
      liveResearchQuery(STAFF_AUTH, RESEARCH_ID).queryKey,
      newResearch({ name: 'Stara nazwa' }),
      { updatedAt: Date.now() - HOUR },
    );
    queryClient.setQueryData(
      liveConfigsQuery(STAFF_AUTH, RESEARCH_ID).queryKey,
      { data: CONFIGS },
      { updatedAt: Date.now() - HOUR },
    );
    await renderUi(<StaffLiveView researchId={RESEARCH_ID} />, { queryClient });
    expect(await screen.findByRole('heading', { name: 'Drzwi EI60 – próba 7' })).toBeInTheDocument();
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    act(() => FakeSocket.latest().open());
    expect(await screen.findByTestId('live-curves')).toBeInTheDocument();
    await settle();
    // And the alarms, staff's only (docs/behaviour.md §17).
    expect(calledApi()).toEqual(['alarmsList', 'liveViewLiveView', 'thermoImage']);
    expect(mocked.liveViewLiveView).toHaveBeenCalledWith(
      expect.objectContaining({ path: { id: RESEARCH_ID }, query: { points: 750 }, headers: undefined }),
    );
    expect(FakeSocket.latest().url).toContain('?ticket=ticket-0');
    // The staff tools list what the bootstrap brought.
    expect(screen.getByText('Brak obserwacji')).toBeInTheDocument();
  });
});

describe('the live layout', () => {
  it('shows the values of the newest frame and the connection status', async () => {
    // The absolute basis: the categories against the spec's critical values in °C.
    const { socket } = await openLiveView({ research: newResearch({ criteria_basis: 'absolute' }) });
    const status = screen.getByTestId('connection-status');
    expect(status).toHaveAttribute('data-status', '1');
    expect(status).toHaveTextContent('Połączono, brak danych');
    expect(screen.getByTestId('elapsed-value')).toHaveTextContent('00:00:00');
    expect(screen.getByTestId('measurement-radiance-value')).toHaveTextContent('---');
    // is_pressure is false: no pressure row.
    expect(screen.queryByTestId('measurement-pressure')).not.toBeInTheDocument();
    expect(screen.getByText('Średnia temperatura w piecu')).toBeInTheDocument();

    act(() =>
      socket.receive({
        event: 'DATA',
        data: { time: 754, radiance: 1.84, pressure: 14.2, pk: 812.44, thermocouples_out: [150, 190.25, 100, 30] },
      }),
    );
    expect(status).toHaveAttribute('data-status', '2');
    expect(status).toHaveTextContent('Odbieranie danych');
    expect(screen.getByTestId('elapsed-value')).toHaveTextContent('00:12:34');
    expect(screen.getByTestId('measurement-radiance-value')).toHaveTextContent('1.8');
    expect(screen.getByTestId('measurement-pk-value')).toHaveTextContent('812.4');

    const mean = screen.getAllByTestId('category')[0]!;
    await waitFor(() => expect(within(mean).getByTestId('category-max')).toHaveTextContent('190.3 / 180.0 °C'));
    expect(within(mean).getByTestId('category-max')).toHaveAttribute('data-exceeded', 'true');
    expect(within(mean).getByTestId('category-mean')).toHaveTextContent('170.1 / 140.0 °C');
    // 'T' has no critical values: no statistics.
    const plain = screen.getAllByTestId('category').find((c) => c.dataset.category === 'T')!;
    expect(within(plain).queryByTestId('category-max')).not.toBeInTheDocument();

    act(() => socket.drop());
    expect(status).toHaveAttribute('data-status', '0');
    expect(status).toHaveTextContent('Rozłączono');
  });

  it('shows the criteria the server pushes (CRITERIA): T0, each rise against T0 + K, d_e, the class; the browser computes none', async () => {
    const { socket } = await openLiveView();
    // Until the first CRITERIA: what the panel shows while loading, and the frames change nothing of it.
    expect(screen.getByTestId('criteria-t0-value')).toHaveTextContent('jeszcze nieznana');
    act(() => socket.receive({ event: 'DATA', data: { time: -10, pk: 20, thermocouples_out: [20, 20.5, 20, 20] } }));
    act(() =>
      socket.receive({ event: 'DATA', data: { time: 754, pk: 812.44, thermocouples_out: [150, 190.25, 100, 30] } }),
    );
    expect(screen.getByTestId('criteria-t0-value')).toHaveTextContent('jeszcze nieznana');
    expect(screen.getByTestId('criteria-de-value')).toHaveTextContent('---');
    const category = () => screen.getAllByTestId('category')[0]!;
    // Without criteria the categories stand against the type's critical values.
    await waitFor(() => expect(within(category()).getByTestId('category-max')).toHaveTextContent('190.3 / 180.0 °C'));

    act(() => socket.receive({ event: 'CRITERIA', data: criteriaView() }));
    expect(screen.getByTestId('criteria-t0-value')).toHaveTextContent('20.3 °C');
    expect(screen.getByTestId('criteria-t0-source')).toHaveTextContent('automatycznie');
    expect(within(category()).getByTestId('category-max')).toHaveTextContent('+170.0 K · 190.3 °C');
    expect(within(category()).getByTestId('category-max-limit')).toHaveTextContent('≤ T0 + 180 K = 200.3 °C');
    expect(within(category()).getByTestId('category-mean')).toHaveTextContent('+149.9 K · 170.1 °C');
    expect(within(category()).getByTestId('category-mean')).toHaveAttribute('data-exceeded', 'true');
    expect(screen.getByTestId('criteria-de-value')).toHaveTextContent('−5.00 %');
    expect(screen.getByTestId('criteria-class-value')).toHaveTextContent('E 45, EI 45, EW 45');

    // A newer one (an exclusion, a T0 by hand, new frames) replaces it as it is.
    act(() =>
      socket.receive({
        event: 'CRITERIA',
        data: criteriaView({
          t0: 25,
          t0_source: 'override',
          deviation: { d_e: 12.5, tolerance: 10, ok: false, periods: [OPEN_PERIOD], conforming: false },
        }),
      }),
    );
    expect(screen.getByTestId('criteria-t0-value')).toHaveTextContent('25.0 °C');
    expect(screen.getByTestId('criteria-de-value')).toHaveTextContent('12.50 %');
    expect(screen.getByTestId('criteria-de-value')).toHaveAttribute('data-ok', 'false');
    expect(screen.getByTestId('criteria-de-period')).toHaveTextContent(
      '00:12:00–trwa, najgorsze +12.50 % przy ±10.00 %',
    );

    // The curves draw the same criteria (limits, failures); nothing read the thermocouples' history
    // for an engine, nor GET …/criteria: the stream sent them.
    expect(await screen.findByTestId('live-curves')).toBeInTheDocument();
    expect(curves.mock.calls.at(-1)?.[0]).toMatchObject({ criteria: { t0: 25, ended: false } });
    expect(mocked.historyRead).not.toHaveBeenCalled();
    expect(mocked.criteriaCriteriaOf).not.toHaveBeenCalled();
  });

  it('keeps the criteria over a reconnect until the fresh CRITERIA the server sends on open', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      const { socket } = await openLiveView();
      act(() => socket.receive({ event: 'CRITERIA', data: criteriaView() }));
      expect(screen.getByTestId('criteria-t0-value')).toHaveTextContent('20.3 °C');
      act(() => socket.drop(1012));
      act(() => jest.advanceTimersByTime(250));
      await waitFor(() => expect(FakeSocket.all).toHaveLength(2));
      // The bootstrap's ticket opened one stream once: the next connection buys its own.
      expect(mocked.streamTicketIssue).toHaveBeenCalledTimes(1);
      expect(mocked.streamTicketIssue).toHaveBeenCalledWith(
        expect.objectContaining({ path: { id: RESEARCH_ID }, headers: { Authorization: 'Bearer tok-1' } }),
      );
      expect(FakeSocket.latest().url).toBe(`ws://localhost/api/v1/research/dane/stream/${RESEARCH_ID}?ticket=ticket-1`);
      act(() => FakeSocket.latest().open());
      expect(screen.getByTestId('criteria-t0-value')).toHaveTextContent('20.3 °C');
      act(() => FakeSocket.latest().receive({ event: 'CRITERIA', data: criteriaView({ t0: 21 }) }));
      expect(screen.getByTestId('criteria-t0-value')).toHaveTextContent('21.0 °C');
      expect(mocked.criteriaCriteriaOf).not.toHaveBeenCalled();
    } finally {
      jest.useRealTimers();
    }
  });

  it('a server that sends no CRITERIA: GET …/criteria once, 5 s after the stream opened, never polled', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      serve();
      mocked.criteriaCriteriaOf.mockImplementation(() => ok(criteriaView({ t0: 19.5 })));
      const { socket } = await openLiveView({}, false);
      act(() => jest.advanceTimersByTime(4000));
      expect(mocked.criteriaCriteriaOf).not.toHaveBeenCalled();
      act(() => jest.advanceTimersByTime(1000));
      await waitFor(() => expect(screen.getByTestId('criteria-t0-value')).toHaveTextContent('19.5 °C'));
      expect(mocked.criteriaCriteriaOf).toHaveBeenCalledTimes(1);
      expect(mocked.criteriaCriteriaOf).toHaveBeenCalledWith(
        expect.objectContaining({ path: { id: RESEARCH_ID }, headers: { Authorization: 'Bearer tok-1' } }),
      );
      act(() => socket.receive({ event: 'DATA', data: { time: 800, pk: 820 } }));
      act(() => jest.advanceTimersByTime(60_000));
      expect(mocked.criteriaCriteriaOf).toHaveBeenCalledTimes(1);
      // A CRITERIA after all (the server was updated): it wins.
      act(() => socket.receive({ event: 'CRITERIA', data: criteriaView({ t0: 22 }) }));
      expect(screen.getByTestId('criteria-t0-value')).toHaveTextContent('22.0 °C');
    } finally {
      jest.useRealTimers();
    }
  });

  it('shows the observations clients may see: UPDATE OBSERVATION refetches the list', async () => {
    const observation: ObservationDto = {
      id: 'o1',
      research_id: RESEARCH_ID,
      time: 700,
      kind: 'cotton_pad',
      note: null,
      visible_to_clients: true,
      created_by: null,
      created_at: '2026-01-01T10:00:00Z',
    };
    const { socket } = await openLiveView();
    // A client sees no observation list until staff make one visible: UPDATE OBSERVATION refetches.
    expect(screen.queryByTestId('observations')).not.toBeInTheDocument();
    mocked.criteriaObservations.mockImplementation(() => ok({ data: [observation] }));
    act(() => socket.receive({ event: 'UPDATE', data: 'OBSERVATION' }));
    expect(await screen.findByTestId('observation')).toHaveTextContent('00:11:40 — Zapłon tamponu bawełnianego');
  });

  it("'tryb termopar' switches the labels from names to readings; '---' without one", async () => {
    const { user, socket } = await openLiveView();
    expect(canvasTexts().map((l) => l.text)).toEqual(['T1', 'T2', 'T3']);
    const toggle = screen.getByRole('button', { name: 'tryb termopar' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(canvasTexts().map((l) => l.text)).toEqual(['---', '---', '---']);
    act(() => socket.receive({ event: 'DATA', data: { time: 1, thermocouples_out: [21.44, null, 190] } }));
    expect(canvasTexts().map((l) => l.text)).toEqual(['21.4', '---', '190.0']);
    await user.click(toggle);
    expect(canvasTexts().map((l) => l.text)).toEqual(['T1', 'T2', 'T3']);
  });

  it("a category toggle hides and shows its markers' labels", async () => {
    const { user } = await openLiveView();
    const button = screen.getByRole('button', { name: 'Pokaż lub ukryj termopary: Tmax' });
    expect(button).toHaveAttribute('aria-pressed', 'true');
    await user.click(button);
    expect(button).toHaveAttribute('aria-pressed', 'false');
    expect(canvasTexts()).toEqual([
      { text: 'T1', visible: true },
      { text: 'T2', visible: true },
      { text: 'T3', visible: false },
    ]);
    await user.click(button);
    expect(canvasTexts().every((l) => l.visible)).toBe(true);
  });

  it('previous/next cycle through the photos, then the cameras, wrapping around', async () => {
    const { user } = await openLiveView();
    const position = screen.getByTestId('view-position');
    const next = screen.getByRole('button', { name: 'Następny widok' });
    const previous = screen.getByRole('button', { name: 'Poprzedni widok' });
    expect(position).toHaveTextContent('Zdjęcie 1 z 2');
    await user.click(next);
    expect(position).toHaveTextContent('Zdjęcie 2 z 2');
    expect(screen.getByTestId('thermo-canvas')).toHaveAttribute('data-config-id', 'cfg-b');
    await user.click(next);
    expect(position).toHaveTextContent('Kamera 1 z 1');
    const iframe = screen.getByTitle('Podgląd z kamery');
    expect(iframe).toHaveAttribute('src', 'https://www.youtube.com/embed/aqz-KE-bpKQ?autoplay=1&mute=1');
    // Sandboxed without top navigation, forms or pop-ups; no referrer (the page URL may hold a client's code).
    expect(iframe).toHaveAttribute('sandbox', 'allow-scripts allow-same-origin allow-presentation');
    expect(iframe).toHaveAttribute('referrerpolicy', 'no-referrer');
    await user.click(next);
    expect(position).toHaveTextContent('Zdjęcie 1 z 2');
    await user.click(previous);
    expect(position).toHaveTextContent('Kamera 1 z 1');
  });

  it('UPDATE notices refetch what staff changed', async () => {
    const { socket } = await openLiveView();
    const before = {
      research: mocked.researchGet.mock.calls.length,
      urls: mocked.researchListUrls.mock.calls.length,
      thermo: mocked.thermoList.mock.calls.length,
      markers: mocked.thermoResearchMarkers.mock.calls.length,
    };
    act(() => socket.receive({ event: 'UPDATE', data: 'LIVESTREAM' }));
    await waitFor(() => expect(mocked.researchListUrls.mock.calls.length).toBe(before.urls + 1));
    act(() => socket.receive({ event: 'UPDATE', data: 'THERMOCOUPLE' }));
    await waitFor(() => expect(mocked.thermoList.mock.calls.length).toBe(before.thermo + 1));
    await waitFor(() => expect(mocked.thermoResearchMarkers.mock.calls.length).toBe(before.markers + 1));
    act(() => socket.receive({ event: 'UPDATE', data: 'RESEARCH' }));
    await waitFor(() => expect(mocked.researchGet.mock.calls.length).toBe(before.research + 1));
    expect(mocked.researchListUrls.mock.calls.length).toBe(before.urls + 1);
  });

  it('the curves get the research, its markers and the same frames as the canvas (one socket)', async () => {
    const { socket } = await openLiveView();
    expect(await screen.findByTestId('live-curves')).toBeInTheDocument();
    const props = curves.mock.calls.at(-1)?.[0] as {
      research: { id: string };
      markers: unknown[];
      frames: { latest(): unknown };
    };
    expect(props.research.id).toBe(RESEARCH_ID);
    expect(props.markers).toEqual(MARKERS);
    act(() => socket.receive({ event: 'DATA', data: { time: 5, pk: 300 } }));
    expect(props.frames.latest()).toEqual({ time: 5, pk: 300 });
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('a connection lost and back (a server restart: close 1012) tells the curves frames may be missing; the first opening does not', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      const { socket } = await openLiveView();
      expect(await screen.findByTestId('live-curves')).toBeInTheDocument();
      const props = curves.mock.calls.at(-1)?.[0] as { frames: { subscribeGap(listener: () => void): () => void } };
      const gap = jest.fn();
      props.frames.subscribeGap(gap);
      act(() => socket.receive({ event: 'DATA', data: { time: 5, pk: 300 } }));
      expect(gap).not.toHaveBeenCalled();
      act(() => socket.drop(1012));
      act(() => jest.advanceTimersByTime(250));
      // The next connection first buys its ticket.
      await waitFor(() => expect(FakeSocket.all).toHaveLength(2));
      act(() => FakeSocket.latest().open());
      expect(gap).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('the language select switches to English (GB flag) and back', async () => {
    const { user } = await openLiveView();
    const select = screen.getByRole('combobox', { name: 'Język / Language' });
    expect(select).toHaveValue('pl');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['English', 'Polski']);
    await user.selectOptions(select, 'en');
    expect(await screen.findByRole('button', { name: 'thermocouple mode' })).toBeInTheDocument();
    expect(screen.getByText('thermocouples')).toBeInTheDocument();
    await user.selectOptions(select, 'pl');
    expect(await screen.findByRole('button', { name: 'tryb termopar' })).toBeInTheDocument();
  });
});

describe('the alarms (staff)', () => {
  const alarm = {
    id: 'a1a1a1a1-0000-4000-8000-000000000001',
    research_id: RESEARCH_ID,
    furnace_id: null,
    kind: 'silence' as const,
    subject: '',
    raised_at: '2026-01-01T10:00:00.000Z',
    details: {},
    acknowledged_at: null,
    acknowledged_by: null,
    cleared_at: null,
    last_notified_at: '2026-01-01T10:00:00.000Z',
    notify_count: 1,
  };

  it('lists the open alarms; ALARM on the stream refetches them; acknowledge sends the acknowledgement', async () => {
    serve();
    const { user } = await renderUi(<StaffLiveView researchId={RESEARCH_ID} />);
    expect(await screen.findByRole('heading', { name: 'Drzwi EI60 – próba 7' })).toBeInTheDocument();
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    const socket = FakeSocket.latest();
    act(() => socket.open());
    expect(await screen.findByText('Brak alarmów')).toBeInTheDocument();
    mocked.alarmsList.mockImplementation(() => ok({ data: [alarm], count: 1 }));
    act(() => socket.receive({ event: 'ALARM', data: alarm }));
    expect(await screen.findByText('DAQ milczy')).toBeInTheDocument();
    mocked.alarmsAcknowledge.mockImplementation(() =>
      ok({ ...alarm, acknowledged_at: '2026-01-01T10:01:00.000Z', acknowledged_by: 'lab@example.com' }),
    );
    await user.click(screen.getByRole('button', { name: 'Potwierdź' }));
    await waitFor(() =>
      expect(mocked.alarmsAcknowledge).toHaveBeenCalledWith(expect.objectContaining({ path: { alarm_id: alarm.id } })),
    );
  });
});

describe('the monitor', () => {
  it("shows T0 and d_e of the CRITERIA the stream sends (the lab's), with no engine run in the browser", async () => {
    serve();
    await renderUi(<MonitorPage researchId={RESEARCH_ID} />);
    expect(await screen.findByTestId('monitor')).toBeInTheDocument();
    await waitFor(() => expect(FakeSocket.all.length).toBeGreaterThan(0));
    const socket = FakeSocket.latest();
    act(() => socket.open());
    // One request for what it shows, the photo, the stream with the bootstrap's ticket.
    await settle();
    expect(calledApi()).toEqual(['alarmsList', 'liveViewLiveView', 'thermoImage']);
    expect(socket.url).toContain('?ticket=ticket-0');
    expect(screen.getByTestId('monitor-t0-value')).toHaveTextContent('---');
    expect(screen.getByTestId('monitor-de-value')).toHaveTextContent('---');
    act(() =>
      socket.receive({ event: 'DATA', data: { time: 754, pk: 812.44, thermocouples_out: [150, 190.25, 100, 30] } }),
    );
    act(() =>
      socket.receive({
        event: 'CRITERIA',
        data: criteriaView({
          deviation: { d_e: 12.5, tolerance: 10, ok: false, periods: [OPEN_PERIOD], conforming: false },
        }),
      }),
    );
    expect(screen.getByTestId('monitor-t0-value')).toHaveTextContent('20.3');
    expect(screen.getByTestId('monitor-de-value')).toHaveTextContent('12.50 %');
    expect(screen.getByTestId('monitor-de-tolerance')).toHaveAttribute('data-ok', 'false');
    expect(screen.getByTestId('monitor-de-period')).toHaveTextContent(
      '00:12:00–trwa, najgorsze +12.50 % przy ±10.00 %',
    );
    const category = screen.getAllByTestId('category')[0]!;
    expect(within(category).getByTestId('category-max')).toHaveTextContent('+170.0 K · 190.3 °C');
    // Read with the staff session: no viewer token; no history and no GET …/criteria for an engine.
    expect(mocked.researchViewerToken).not.toHaveBeenCalled();
    expect(mocked.historyRead).not.toHaveBeenCalled();
    expect(mocked.criteriaCriteriaOf).not.toHaveBeenCalled();
  });

  it('keeps d_e red once it was outside its tolerance, and judges the pressure against its target', async () => {
    serve({ research: newResearch({ is_pressure: true }) });
    await renderUi(<MonitorPage researchId={RESEARCH_ID} />);
    expect(await screen.findByTestId('monitor')).toBeInTheDocument();
    await waitFor(() => expect(FakeSocket.all.length).toBeGreaterThan(0));
    const socket = FakeSocket.latest();
    act(() => socket.open());
    await settle();
    const closed = { ...OPEN_PERIOD, to: 740, open: false };
    const pressure = {
      target: 20,
      value: 21.2,
      tolerance: 3,
      ok: true,
      periods: [{ from: 330, to: 420, open: false, worst: -6.4, worst_tolerance: 5, worst_time: 400 }],
      conforming: false,
    };
    act(() =>
      socket.receive({
        event: 'CRITERIA',
        data: criteriaView({
          deviation: { d_e: 8, tolerance: 13.7, ok: true, periods: [closed], conforming: false },
          pressure,
        }),
      }),
    );
    // Within tolerance now, but the test no longer conforms: red, with the period it was outside.
    expect(screen.getByTestId('monitor-de-tolerance')).toHaveAttribute('data-ok', 'true');
    expect(screen.getByTestId('monitor-de-tolerance')).toHaveAttribute('data-conforming', 'false');
    expect(screen.getByTestId('monitor-de').getAttribute('style')).toContain('--mantine-color-red-6');
    expect(screen.getByTestId('monitor-de-period')).toHaveTextContent(
      '00:12:00–00:12:20, najgorsze +12.50 % przy ±10.00 %',
    );
    expect(screen.getByTestId('monitor-pressure-target')).toHaveTextContent('cel 20.0 ± 3.0 Pa');
    expect(screen.getByTestId('monitor-pressure').getAttribute('style')).toContain('--mantine-color-red-6');
    expect(screen.getByTestId('monitor-pressure-period')).toHaveTextContent(
      '00:05:30–00:07:00, najgorsze −6.4 Pa przy ±5.0 Pa',
    );
  });
});
