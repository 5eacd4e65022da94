import { Box, Stack } from '@mantine/core';
import { isResearchId } from '@furnace/contracts';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { ApiError, isAuthError } from '../../api/errors';
import { Logo } from '../../components/Logo';
import { LanguageSelect } from '../live/LanguageSelect';
import classes from '../live/live.module.css';
import { LiveGate, LiveLoading } from '../live/LiveGate';
import { viewerTokenQuery } from '../stream/live-queries';
import { LiveScreen } from './LiveScreen';
import { type ReadAuth, ReadAuthProvider } from '../stream/read-auth';
import { StatusScreen } from '../live/StatusScreen';

/** A refused stream asks for a new token only when the one held is at least this old. */
const TOKEN_RETRY_AGE_MS = 60_000;

function PublicFooter() {
  return (
    <Stack gap="md" align="center" mt="md" w="100%">
      <Box w={220}>
        <LanguageSelect />
      </Box>
      <Logo />
    </Stack>
  );
}

/** The client's session: the invitation code exchanged for a viewer token, renewed when it expires. */
function ViewerSession({ researchId, code }: { researchId: string; code: string }) {
  const token = useQuery(viewerTokenQuery(researchId, code));
  const { refetch, dataUpdatedAt } = token;
  const renew = useCallback(() => void refetch(), [refetch]);
  // A ticket refused with 401/403 means the viewer token no longer holds (expired, or the code was
  // revoked): exchange the code again at once, which shows "access denied" if it was revoked.
  const onRefused = useCallback(
    (error?: unknown) => {
      if (isAuthError(error) || Date.now() - dataUpdatedAt > TOKEN_RETRY_AGE_MS) void refetch();
    },
    [dataUpdatedAt, refetch],
  );
  const accessToken = token.data?.access_token;
  const auth = useMemo<ReadAuth | null>(
    () => (accessToken ? { kind: 'viewer', researchId, token: accessToken } : null),
    [accessToken, researchId],
  );

  const status = token.error instanceof ApiError ? token.error.status : -1;
  // 404: no such research. 403 (or a code the API refuses outright): access denied, nothing shown.
  if (status === 404) return <StatusScreen kind="notFound">{<PublicFooter />}</StatusScreen>;
  if (status === 401 || status === 403 || status === 422)
    return <StatusScreen kind="denied">{<PublicFooter />}</StatusScreen>;
  if (!auth) {
    if (token.error)
      return (
        <StatusScreen kind="error" onRetry={renew}>
          {<PublicFooter />}
        </StatusScreen>
      );
    return <LiveLoading />;
  }
  return (
    <ReadAuthProvider auth={auth}>
      <LiveGate auth={auth} researchId={researchId} onUnauthorized={renew} statusFooter={<PublicFooter />}>
        {(data) => <LiveScreen data={data} onRefused={onRefused} />}
      </LiveGate>
    </ReadAuthProvider>
  );
}

/**
 * The public live view /view/{researchId}?code= (docs/behaviour.md §2): only a code that is one of the research's
 * invitations opens it; a missing or wrong code shows the access-denied screen and nothing else.
 */
export function PublicLiveView({ researchId, code }: { researchId: string; code: string }) {
  let content;
  if (!isResearchId(researchId)) content = <StatusScreen kind="notFound">{<PublicFooter />}</StatusScreen>;
  else if (!isResearchId(code)) content = <StatusScreen kind="denied">{<PublicFooter />}</StatusScreen>;
  else content = <ViewerSession key={`${researchId}:${code}`} researchId={researchId} code={code} />;
  return <main className={classes.page}>{content}</main>;
}
