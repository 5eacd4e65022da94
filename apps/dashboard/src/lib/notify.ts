import { notifications } from '@mantine/notifications';
import { createElement } from 'react';
import { errorDetail } from '../api/errors';
import { i18n } from '../i18n';

const closeLabel = () => ({ 'aria-label': i18n.t('common.close') });

/** Success toast: title 'Success!' and the given (already translated) message. */
export function notifySuccess(message: string): void {
  notifications.show({
    title: i18n.t('common.successTitle'),
    message,
    color: 'teal',
    withBorder: true,
    closeButtonProps: closeLabel(),
  });
}

/**
 * The message an API error toast shows (docs/behaviour.md §8): the body's detail, the first item's msg of a
 * detail array, or 'Something went wrong.'.
 */
export function errorMessage(error: unknown): string {
  return errorDetail(error) ?? i18n.t('common.genericError');
}

/**
 * Error toast titled 'Something went wrong!'. With `failure` (the product's message for the action
 * that failed), the toast shows it first and the server's detail under it.
 */
export function notifyError(error: unknown, failure?: string): void {
  const detail = errorDetail(error);
  const message =
    failure === undefined
      ? (detail ?? i18n.t('common.genericError'))
      : detail === null
        ? failure
        : createElement('span', null, failure, createElement('br'), createElement('small', null, detail));
  notifications.show({
    title: i18n.t('common.errorTitle'),
    message,
    color: 'red',
    withBorder: true,
    autoClose: 8000,
    closeButtonProps: closeLabel(),
  });
}
