import type { HistoryDto } from '@furnace/api-client';
import { QueryClient } from '@tanstack/react-query';
import { act, waitFor } from '@testing-library/react';
import { useEffect } from 'react';
import { renderUi } from '../../test/render';
import { historyKeys, LIVE_HISTORY_POINTS } from '../stream/history-api';
import { createFrameSource } from '@furnace/contracts';
import { ReadAuthProvider, type ReadAuth } from '../stream/read-auth';
import type { EChartProps } from '../charts/EChart';
import { LiveCurves } from './LiveCurves';
import type { Point } from '../charts/points';
import { historyFromFrames, newFrame, newFrames, newMarker } from '../charts/test-factories';

/*
 * LiveCurves with its data path real (query, subscription, store, pushes) and the canvas replaced:
 * jsdom cannot draw, so the chart is a recorder of what the component gives ECharts.
 */
type SetOptionCall = { option: Record<string, unknown>; opts: unknown };
const calls: SetOptionCall[] = [];
const options: unknown[] = [];
const sink = {
  setOption: (option: Record<string, unknown>, opts: unknown) => void calls.push({ option, opts }),
  isDisposed: () => false,
  dispatchAction: () => undefined,
};

jest.mock('../charts/EChart', () => ({
  EChart: (props: EChartProps) => {
    options.push(props.option);
    useEffect(() => props.onInstance(sink as never), [props]);
    return <div data-testid="echart" />;
  },
}));

const events: string[] = [];
let resolveHistory: (history: HistoryDto) => void = () => undefined;
const requests: { headers?: Record<string, string>; query?: unknown }[] = [];
jest.mock('@furnace/api-client', () => ({
  ...jest.requireActual('@furnace/api-client'),
  historyRead: (options: { headers?: Record<string, string>; query?: unknown }) => {
    events.push('history requested');
    requests.push(options);
    return new Promise((resolve) => {
      resolveHistory = (data) => resolve({ data, error: undefined, response: { ok: true, status: 200 } });
    });
  },
}));

const markers = [
  newMarker({ thermo_id: 1, type_name: 'Tśr i Tmax' }),
  newMarker({ thermo_id: 2, type_name: 'Tmax', color_hex: '#1E88E5' }),
];
const research = {
  id: 'r-1',
  start_at: '2030-01-01T10:00:00Z',
  end_at: '2030-01-01T13:00:00Z',
  is_radiance: true,
  is_furnance: true,
  is_pressure: false,
};
const viewer: ReadAuth = { kind: 'viewer', researchId: 'r-1', token: 'viewer-token' };

/** The data each series was last given, from the recorded setOption calls. */
function latestData(): Map<string, Point[]> {
  const data = new Map<string, Point[]>();
  for (const call of calls)
    for (const s of call.option.series as { id: string; data: Point[] }[]) data.set(s.id, s.data);
  return data;
}

beforeEach(() => {
  calls.length = 0;
  options.length = 0;
  events.length = 0;
  requests.length = 0;
});

it('draws the history, then the live frames after its last_time (no gap, no duplicate), by partial updates only', async () => {
  const source = createFrameSource();
  const subscribe = source.subscribeAll.bind(source);
  source.subscribeAll = (listener) => {
    events.push('subscribed');
    return subscribe(listener);
  };
  await renderUi(
    <ReadAuthProvider auth={viewer}>
      <LiveCurves research={research} markers={markers} frames={source} />
    </ReadAuthProvider>,
  );
  await waitFor(() => expect(events).toEqual(['subscribed', 'history requested']));
  // The viewer's token goes with the read; the whole test in ≤ 750 buckets.
  expect(requests[0]?.headers).toEqual({ Authorization: 'Bearer viewer-token' });
  expect(requests[0]?.query).toMatchObject({ points: 750 });
  // The curves draw each category's max and mean, which the server aggregates: no thermocouple's own series is asked for.
  expect((requests[0]?.query as { thermo_ids?: unknown }).thermo_ids).toBeUndefined();

  // Frames arrive while the history is on its way: two it will contain, one after it.
  const stored = newFrames(0, 60, 1, (t) => ({ pk: 100 + t, thermocouples_out: [t, 2 * t] }));
  act(() => {
    source.push(newFrame(59, { pk: 159, thermocouples_out: [59, 118] }));
    source.push(newFrame(60, { pk: 160, thermocouples_out: [60, 120] }));
    source.push(newFrame(61, { pk: 161, thermocouples_out: [61, 122] }));
  });
  await act(async () => resolveHistory(historyFromFrames(stored, markers)));
  await waitFor(() => expect(latestData().get('pk')?.length).toBe(62));
  expect(
    latestData()
      .get('pk')
      ?.map((p) => p[0]),
  ).toEqual(Array.from({ length: 62 }, (_, i) => i * 1000));

  // Later frames, one redelivered.
  act(() => {
    source.push(newFrame(62, { pk: 162, thermocouples_out: [200, 124] }));
    source.push(newFrame(62, { pk: 162, thermocouples_out: [200, 124] }));
    source.push(newFrame(63, { pk: 163, thermocouples_out: [63, 126] }));
  });
  await waitFor(() => expect(latestData().get('pk')?.at(-1)).toEqual([63_000, 163]));
  const data = latestData();
  expect(data.get('pk')).toHaveLength(64);
  expect(data.get('category:Tśr i Tmax:max')?.slice(-2)).toEqual([
    [62_000, 200],
    [63_000, 63],
  ]);
  expect(data.get('category:Tmax:mean')?.at(-1)).toEqual([63_000, 126]);
  expect(data.get('iso834')?.at(-1)?.[0]).toBe(63_000);

  // Another ingest's frame 64 arrives after 65, in a batch of its own: drawn in its place.
  act(() => source.push(newFrame(65, { pk: 165, thermocouples_out: [65, 130] })));
  await waitFor(() => expect(latestData().get('pk')?.at(-1)).toEqual([65_000, 165]));
  act(() => source.push(newFrame(64, { pk: 164, thermocouples_out: [64, 128] })));
  await waitFor(() => expect(latestData().get('pk')).toHaveLength(66));
  expect(latestData().get('pk')?.slice(-3)).toEqual([
    [63_000, 163],
    [64_000, 164],
    [65_000, 165],
  ]);

  // Every update named series by id and nothing else: the option was never rebuilt per frame.
  for (const call of calls) {
    expect(Object.keys(call.option)).toEqual(['series']);
    expect(call.opts).toMatchObject({ lazyUpdate: true });
  }
  expect(new Set(options).size).toBe(1);
});

it('has no furnace curve for a research without furnace temperature', async () => {
  const source = createFrameSource();
  await renderUi(
    <ReadAuthProvider auth={{ kind: 'staff' }}>
      <LiveCurves research={{ ...research, is_furnance: false }} markers={markers} frames={source} />
    </ReadAuthProvider>,
  );
  await waitFor(() => expect(requests).toHaveLength(1));
  expect(requests[0]?.headers).toBeUndefined();
  const option = options.at(-1) as { series: { id: string }[] };
  expect(option.series.map((s) => s.id)).not.toContain('pk');
  expect(option.series.map((s) => s.id)).not.toContain('iso834');
});

it('reads the history again after a reconnect: the frames of the interruption are drawn, none twice', async () => {
  const source = createFrameSource();
  await renderUi(
    <ReadAuthProvider auth={viewer}>
      <LiveCurves research={research} markers={markers} frames={source} />
    </ReadAuthProvider>,
  );
  await waitFor(() => expect(requests).toHaveLength(1));
  await act(async () =>
    resolveHistory(
      historyFromFrames(
        newFrames(0, 60, 1, (t) => ({ pk: 100 + t })),
        markers,
      ),
    ),
  );
  act(() => source.push(newFrame(61, { pk: 161 })));
  await waitFor(() => expect(latestData().get('pk')).toHaveLength(62));

  // The connection drops; 62–65 are stored meanwhile; it is back and 66 arrives before the history.
  act(() => source.markGap());
  await waitFor(() => expect(requests).toHaveLength(2));
  act(() => source.push(newFrame(66, { pk: 166 })));
  await act(async () =>
    resolveHistory(
      historyFromFrames(
        newFrames(0, 65, 1, (t) => ({ pk: 100 + t })),
        markers,
      ),
    ),
  );
  await waitFor(() => expect(latestData().get('pk')).toHaveLength(67));
  expect(
    latestData()
      .get('pk')
      ?.map((p) => p[0]),
  ).toEqual(Array.from({ length: 67 }, (_, i) => i * 1000));
  expect(latestData().get('pk')?.slice(-2)).toEqual([
    [65_000, 165],
    [66_000, 166],
  ]);
});

describe("the live view's bootstrap", () => {
  const seeded = (history: HistoryDto, updatedAt = Date.now()) => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    queryClient.setQueryData(historyKeys.series(viewer, research.id, { points: LIVE_HISTORY_POINTS }), history, {
      updatedAt,
    });
    return queryClient;
  };

  it('draws the history it read, then the frames kept since the stream opened: no read of its own', async () => {
    const source = createFrameSource();
    const queryClient = seeded(
      historyFromFrames(
        newFrames(0, 60, 1, (t) => ({ pk: 100 + t })),
        markers,
      ),
    );
    const early = [newFrame(60, { pk: 160 }), newFrame(61, { pk: 161 })];
    const earlyFrames = jest.fn(() => ({ since: Date.now(), frames: early }));
    await renderUi(
      <ReadAuthProvider auth={viewer}>
        <LiveCurves research={research} markers={markers} frames={source} earlyFrames={earlyFrames} />
      </ReadAuthProvider>,
      { queryClient },
    );
    await waitFor(() => expect(latestData().get('pk')).toHaveLength(62));
    expect(
      latestData()
        .get('pk')
        ?.map((p) => p[0]),
    ).toEqual(Array.from({ length: 62 }, (_, i) => i * 1000));
    act(() => source.push(newFrame(62, { pk: 162 })));
    await waitFor(() => expect(latestData().get('pk')?.at(-1)).toEqual([62_000, 162]));
    expect(requests).toHaveLength(0);
    expect(earlyFrames).toHaveBeenCalledTimes(1);

    // A reconnect still reads the history again.
    act(() => source.markGap());
    await waitFor(() => expect(requests).toHaveLength(1));
  });

  it('reads the history again when frames since it are missing, or it was read long before', async () => {
    for (const [earlyFrames, updatedAt] of [
      [() => null, Date.now()],
      [() => ({ since: Date.now(), frames: [] }), Date.now() - 60_000],
    ] as const) {
      requests.length = 0;
      calls.length = 0;
      const source = createFrameSource();
      const queryClient = seeded(
        historyFromFrames(
          newFrames(0, 60, 1, (t) => ({ pk: 100 + t })),
          markers,
        ),
        updatedAt,
      );
      const view = await renderUi(
        <ReadAuthProvider auth={viewer}>
          <LiveCurves research={research} markers={markers} frames={source} earlyFrames={earlyFrames} />
        </ReadAuthProvider>,
        { queryClient },
      );
      await waitFor(() => expect(requests).toHaveLength(1));
      // The one in the cache is never drawn.
      expect(latestData().get('pk') ?? []).toHaveLength(0);
      await act(async () =>
        resolveHistory(
          historyFromFrames(
            newFrames(0, 90, 1, (t) => ({ pk: 100 + t })),
            markers,
          ),
        ),
      );
      await waitFor(() => expect(latestData().get('pk')).toHaveLength(91));
      view.unmount();
    }
  });
});
