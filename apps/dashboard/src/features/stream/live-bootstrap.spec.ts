import type { LiveViewDto } from '@furnace/api-client';
import { QueryClient } from '@tanstack/react-query';
import { PROFILE_FIELDS } from '../../test/research-fixture';
import { exclusionsQuery, observationsQuery } from './criteria-api';
import { historyQueryOptions, LIVE_HISTORY_POINTS } from './history-api';
import { seedLiveView, singleUseTicket, ticketFromHeaders } from './live-bootstrap';
import { liveConfigsQuery, liveMarkersQuery, liveResearchQuery, liveUrlsQuery } from './live-queries';
import type { ReadAuth } from './read-auth';

const RESEARCH_ID = '3f1e1c9a-8d3b-4a6e-9f0e-1b2c3d4e5f60';

describe('singleUseTicket', () => {
  afterEach(() => jest.useRealTimers());

  it('hands the ticket out once', () => {
    const take = singleUseTicket({ ticket: 't-1', expires_in: 30 });
    expect(take()).toBe('t-1');
    expect(take()).toBeNull();
  });

  it('not once it is about to expire: the stream buys a fresh one instead', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const take = singleUseTicket({ ticket: 't-1', expires_in: 30 });
    jest.setSystemTime(1_000_000 + 26_000);
    expect(take()).toBeNull();
  });

  it("is read from the live view's response headers; without them there is none, and the stream buys its own", () => {
    const issued = ticketFromHeaders(new Headers({ 'Stream-Ticket': 't-2', 'Stream-Ticket-Expires-In': '30' }));
    expect(issued).toEqual({ ticket: 't-2', expires_in: 30 });
    expect(singleUseTicket(issued)()).toBe('t-2');
    expect(ticketFromHeaders(new Headers({ 'Stream-Ticket': 't-2' }))).toBeNull();
    expect(singleUseTicket(ticketFromHeaders(new Headers()))()).toBeNull();
  });
});

describe('seedLiveView', () => {
  const view: LiveViewDto = {
    research: {
      id: RESEARCH_ID,
      name: 'Drzwi',
      start_at: '2030-01-01T10:00:00Z',
      end_at: '2030-01-01T13:00:00Z',
      is_radiance: true,
      is_furnance: true,
      is_pressure: false,
      ...PROFILE_FIELDS,
    },
    urls: [{ id: 'u1', url: 'https://cams.example.com/a.m3u8', research_id: RESEARCH_ID }],
    configs: [
      {
        id: 'c1',
        research_id: RESEARCH_ID,
        image_filename: 'a.png',
        config_filename: 'a.txt',
        image_width: 800,
        image_height: 500,
      },
    ],
    markers: [],
    observations: [],
    exclusions: [
      {
        id: 'x1',
        research_id: RESEARCH_ID,
        thermo_id: 3,
        from_time: 120,
        reason: 'broken',
        created_by: null,
        created_at: '2030-01-01T10:05:00Z',
      },
    ],
    history: {
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
    },
  };

  it.each<ReadAuth>([{ kind: 'staff' }, { kind: 'viewer', researchId: RESEARCH_ID, token: 'tok' }])(
    'puts each part where its query reads it, in the shape its own request stores, fresh ($kind)',
    (auth) => {
      const queryClient = new QueryClient();
      seedLiveView(queryClient, auth, RESEARCH_ID, view, 1234);
      const stored = <T>(options: { queryKey: readonly unknown[] }) => queryClient.getQueryState<T>(options.queryKey);
      expect(stored(liveResearchQuery(auth, RESEARCH_ID))?.data).toEqual(view.research);
      expect(stored(liveUrlsQuery(auth, RESEARCH_ID))?.data).toEqual({ data: view.urls });
      expect(stored(liveConfigsQuery(auth, RESEARCH_ID))?.data).toEqual({ data: view.configs });
      expect(stored(liveMarkersQuery(auth, RESEARCH_ID))?.data).toEqual({ data: view.markers });
      expect(stored(observationsQuery(auth, RESEARCH_ID))?.data).toEqual(view.observations);
      expect(stored(exclusionsQuery(auth, RESEARCH_ID))?.data).toEqual(view.exclusions);
      expect(stored(historyQueryOptions(auth, RESEARCH_ID, { points: LIVE_HISTORY_POINTS }))?.data).toEqual(
        view.history,
      );
      expect(stored(liveResearchQuery(auth, RESEARCH_ID))?.dataUpdatedAt).toBe(1234);
    },
  );
});
