import { Center, Loader, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/errors';
import type { Research, ResearchUrl, ThermoConfig, Marker } from '../../api/research-types';
import { type FirstTicket, liveBootstrapQuery } from '../stream/live-bootstrap';
import { liveKeys } from '../stream/live-keys';
import { liveConfigsQuery, liveMarkersQuery, liveResearchQuery, liveUrlsQuery } from '../stream/live-queries';
import type { ReadAuth } from '../stream/read-auth';
import { useResearchPhase } from './research-phase';
import { type StatusKind, StatusScreen } from './StatusScreen';

export interface LiveData {
  research: Research;
  urls: readonly ResearchUrl[];
  configs: readonly ThermoConfig[];
  markers: readonly Marker[];
  /** The links, configs and markers have loaded (or failed): the layout has its final size. */
  ready: boolean;
  /** The ticket the bootstrap brought, for the stream's first connection (later ones buy their own). */
  streamTicket: FirstTicket;
}

/** While the research has not started, look for a changed start time this often. */
const NOT_STARTED_POLL_MS = 60_000;
const NONE: readonly never[] = [];
const NO_TICKET: FirstTicket = () => null;

function statusOf(error: unknown): number {
  return error instanceof ApiError ? error.status : -1;
}

/** The status screen for a failed read of the research, or null while a viewer's token is being renewed. */
function errorScreen(error: unknown, auth: ReadAuth): StatusKind | null {
  const status = statusOf(error);
  if (status === 404 || status === 422) return 'notFound'; // 422: not a research id at all.
  if (status === 403) return 'denied';
  if (status === 401 && auth.kind === 'viewer') return null;
  return 'error';
}

export function LiveLoading() {
  const { t } = useTranslation('live');
  return (
    <Center mih="50vh">
      <Stack align="center" gap="xs">
        <Loader />
        <Text c="dimmed" size="sm">
          {t('status.loading')}
        </Text>
      </Stack>
    </Center>
  );
}

/**
 * Reads the research and decides what the page shows (docs/behaviour.md §2 and §4): does not exist, access denied,
 * not started, ended, or `children` with the research's links, configs and markers while it is live.
 * Everything is read first in one request (the bootstrap, live-bootstrap.ts), which fills the cache
 * of the reads below: they mount after it and read only when the stream says something changed.
 * A viewer's 401 (the 12-hour token expired) asks `onUnauthorized` for a new token; the failed reads
 * run again once it arrives.
 */
export function LiveGate({
  auth,
  researchId,
  onUnauthorized,
  statusFooter,
  children,
}: {
  auth: ReadAuth;
  researchId: string;
  onUnauthorized?: () => void;
  /** Shown under every status screen (the public view's language select and logo). */
  statusFooter?: ReactNode;
  children: (data: LiveData) => ReactNode;
}) {
  const queryClient = useQueryClient();
  const bootstrap = useQuery(liveBootstrapQuery(auth, researchId));
  // Nothing below is read before the bootstrap has filled the cache, even what another screen left there.
  const booted = bootstrap.isSuccess;
  const research = useQuery({
    ...liveResearchQuery(auth, researchId),
    enabled: booted,
    refetchInterval: (query) => {
      const data = query.state.data;
      return data && Date.now() < Date.parse(data.start_at) ? NOT_STARTED_POLL_MS : false;
    },
  });
  const phase = useResearchPhase(research.data);
  const live = booted && phase === 'live';
  const urls = useQuery({ ...liveUrlsQuery(auth, researchId), enabled: live });
  const configs = useQuery({ ...liveConfigsQuery(auth, researchId), enabled: live });
  const markers = useQuery({ ...liveMarkersQuery(auth, researchId), enabled: live });

  const unauthorized =
    auth.kind === 'viewer' &&
    [bootstrap.error, research.error, urls.error, configs.error, markers.error].some(
      (error) => statusOf(error) === 401,
    );
  useEffect(() => {
    if (unauthorized) onUnauthorized?.();
  }, [unauthorized, onUnauthorized]);

  // A renewed viewer token: read again what failed with the old one.
  const token = auth.kind === 'viewer' ? auth.token : null;
  const lastToken = useRef(token);
  useEffect(() => {
    if (token === lastToken.current) return;
    lastToken.current = token;
    void queryClient.refetchQueries({
      queryKey: liveKeys.scope(auth, researchId),
      predicate: (query) => query.state.status === 'error',
    });
  }, [token, auth, researchId, queryClient]);

  const failed = bootstrap.error ?? research.error;
  if (failed && !(booted && research.data)) {
    const kind = errorScreen(failed, auth);
    if (kind === null) return <LiveLoading />;
    const retry = () => void (bootstrap.error ? bootstrap.refetch() : research.refetch());
    return (
      <StatusScreen kind={kind} onRetry={kind === 'error' ? retry : undefined}>
        {statusFooter}
      </StatusScreen>
    );
  }
  if (!booted || !research.data || phase === null) return <LiveLoading />;
  // A research deleted while watched.
  if (statusOf(research.error) === 404) return <StatusScreen kind="notFound">{statusFooter}</StatusScreen>;
  if (phase === 'notStarted') return <StatusScreen kind="notStarted">{statusFooter}</StatusScreen>;
  if (phase === 'ended') return <StatusScreen kind="ended">{statusFooter}</StatusScreen>;

  return children({
    research: research.data,
    urls: urls.data ?? NONE,
    configs: configs.data ?? NONE,
    markers: markers.data ?? NONE,
    ready: !urls.isPending && !configs.isPending && !markers.isPending,
    streamTicket: bootstrap.data?.streamTicket ?? NO_TICKET,
  });
}
