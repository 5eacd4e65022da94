import { Alert, Box, Loader, Text } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { useLabStream } from '../stream/lab-socket';
import classes from './LabPage.module.css';
import { LabTileCard } from './LabTileCard';

/** The lab overview, /lab (docs/behaviour.md §18): one tile per furnace, live over one socket. */
export function LabPage() {
  const { t } = useTranslation('lab');
  const { tiles, clockOffsetMs, connected } = useLabStream();
  // The clocks on the tiles (elapsed time, the last frame's age) tick here, by the server's time: nothing is sent for them.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const serverNow = now + clockOffsetMs;

  return (
    <>
      <PageHeader title={t('overview.title')} subtitle={t('overview.hint')} />
      {!connected && tiles !== null ? (
        <Alert
          color="orange"
          icon={<IconPlugConnectedX size={18} aria-hidden />}
          mb="md"
          data-testid="lab-reconnecting"
        >
          {t('overview.reconnecting')}
        </Alert>
      ) : null}
      {tiles === null ? (
        <Text c="dimmed" data-testid="lab-connecting">
          <Loader size="xs" mr="xs" />
          {t('overview.connecting')}
        </Text>
      ) : tiles.length === 0 ? (
        <Text c="dimmed">{t('overview.empty')}</Text>
      ) : (
        <Box className={classes.tiles} data-testid="lab-tiles">
          {tiles.map((tile) => (
            <LabTileCard key={tile.furnace.id} tile={tile} serverNow={serverNow} />
          ))}
        </Box>
      )}
    </>
  );
}
