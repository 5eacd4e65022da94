import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { i18n } from '../i18n';

export interface ConfirmOptions {
  title: string;
  text: string;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
}

/** A confirm dialog for a destructive action (Mantine's modal traps focus and closes on Escape). */
export function confirmDestructive({ title, text, confirmLabel, cancelLabel, onConfirm }: ConfirmOptions): void {
  modals.openConfirmModal({
    title,
    centered: true,
    closeButtonProps: { 'aria-label': i18n.t('common.close') },
    children: <Text size="sm">{text}</Text>,
    labels: { confirm: confirmLabel, cancel: cancelLabel },
    confirmProps: { color: 'red', 'data-testid': 'confirm-button' },
    cancelProps: { variant: 'default' },
    onConfirm,
  });
}
