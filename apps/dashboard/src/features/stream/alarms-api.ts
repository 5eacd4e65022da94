import { alarmsAcknowledge, alarmsList, type AlarmDto } from '@furnace/api-client';
import { queryOptions } from '@tanstack/react-query';
import { unwrap } from '../../api/errors';
import { liveKeys } from './live-keys';
import { LIVE_FRESH_MS } from './live-queries';
import { queryMetaFor, type ReadAuth, readHeaders } from './read-auth';

/* The alarms of a research (docs/behaviour.md §17): staff only; the live stream's ALARM messages refetch them. */

export const alarmsQuery = (auth: ReadAuth, researchId: string) =>
  queryOptions({
    queryKey: liveKeys.alarms(auth, researchId),
    queryFn: ({ signal }): Promise<AlarmDto[]> =>
      unwrap(alarmsList({ path: { research_id: researchId }, headers: readHeaders(auth), signal })).then(
        (list) => list.data,
      ),
    staleTime: LIVE_FRESH_MS,
    meta: queryMetaFor(auth),
  });

export const acknowledgeAlarm = (auth: ReadAuth, alarmId: string): Promise<AlarmDto> =>
  unwrap(alarmsAcknowledge({ path: { alarm_id: alarmId }, headers: readHeaders(auth) }));
