import type { ResearchDto } from '@furnace/api-client';
import { Alert } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Why the research's record cannot be changed now, or null when it can: an approved test refuses every change
 * until a superuser reopens it (the API answers 409 with the same reason).
 */
export function useFrozenReason(research: Pick<ResearchDto, 'approved_revision'> | undefined): string | null {
  const { t } = useTranslation('review');
  const revision = research?.approved_revision ?? null;
  return revision === null ? null : t('frozen', { revision });
}

/** The reason the controls below are disabled, where they are. */
export function FrozenNote({ reason }: { reason: string | null }) {
  if (!reason) return null;
  return (
    <Alert color="gray" variant="light" icon={<IconLock aria-hidden />} py="xs" data-testid="frozen-note">
      {reason}
    </Alert>
  );
}

/**
 * Its controls disabled, with the reason above them, while the record is frozen: a fieldset disables every button
 * and field inside it at once, and stays out of the layout.
 */
export function FrozenControls({ reason, children }: { reason: string | null; children: ReactNode }) {
  if (!reason) return <>{children}</>;
  return (
    <>
      <FrozenNote reason={reason} />
      <fieldset disabled style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        {children}
      </fieldset>
    </>
  );
}
