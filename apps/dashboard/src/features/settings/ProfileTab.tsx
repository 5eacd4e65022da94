import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { userKeys } from '../../api/keys';
import { updateMe, type User } from '../../api/users';
import { PasswordField } from '../../components/PasswordField';
import { useErrorText } from '../../components/use-error-text';
import { notifyError, notifySuccess } from '../../lib/notify';
import { FULL_NAME_MAX_LENGTH, profileSchema, type ProfileValues } from '../../lib/validation';

const toValues = (user: User): ProfileValues => ({
  full_name: user.full_name ?? '',
  email: user.email,
  current_password: '',
});

/** My profile: full name and e-mail, shown; Edit turns them into inputs with Save and Cancel. */
export function ProfileForm({ user, onSubmit }: { user: User; onSubmit: (values: ProfileValues) => Promise<boolean> }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [editing, setEditing] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    control,
    formState: { errors, isDirty, isSubmitting, isValid },
  } = useForm({ mode: 'onTouched', resolver: zodResolver(profileSchema), defaultValues: toValues(user) });
  const email = useWatch({ control, name: 'email' });
  const currentPassword = useWatch({ control, name: 'current_password' });
  const emailChanges = (email ?? '').trim().toLowerCase() !== user.email;

  const submit = async (values: ProfileValues) => {
    if (await onSubmit(values)) {
      reset({ ...values, current_password: '' });
      setEditing(false);
    }
  };

  const cancel = () => {
    reset(toValues(user));
    setEditing(false);
  };

  return (
    <form onSubmit={handleSubmit(submit)} noValidate>
      <Stack gap="md" maw={480}>
        <Title order={2} fz="lg">
          {t('settings.userInformation')}
        </Title>
        {editing ? (
          <>
            <TextInput
              {...register('full_name')}
              label={t('settings.fullName')}
              maxLength={FULL_NAME_MAX_LENGTH}
              autoComplete="name"
              error={errorText(errors.full_name)}
            />
            <TextInput
              {...register('email')}
              label={t('settings.email')}
              type="email"
              autoComplete="email"
              error={errorText(errors.email)}
              required
            />
            {emailChanges && (
              <PasswordField
                {...register('current_password')}
                label={t('auth.currentPasswordForEmail')}
                autoComplete="current-password"
                required
              />
            )}
          </>
        ) : (
          <>
            <ReadOnlyField
              label={t('settings.fullName')}
              value={user.full_name || t('settings.notSet')}
              muted={!user.full_name}
            />
            <ReadOnlyField label={t('settings.email')} value={user.email} />
          </>
        )}
        <Group gap="sm">
          {editing ? (
            <>
              <Button
                type="submit"
                disabled={!isDirty || !email || !isValid || isSubmitting || (emailChanges && !currentPassword)}
                loading={isSubmitting}
              >
                {t('settings.save')}
              </Button>
              <Button variant="default" onClick={cancel} disabled={isSubmitting}>
                {t('settings.cancel')}
              </Button>
            </>
          ) : (
            <Button variant="outline" onClick={() => setEditing(true)}>
              {t('settings.edit')}
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

function ReadOnlyField({ label, value, muted = false }: { label: string; value: string; muted?: boolean }) {
  return (
    <div>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <Text size="md" c={muted ? 'dimmed' : undefined} py={4} style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </div>
  );
}

export function ProfileTab({ user }: { user: User }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const update = useMutation({
    mutationFn: (values: ProfileValues) => {
      const email = values.email.trim();
      const changesEmail = email.toLowerCase() !== user.email;
      return updateMe({
        full_name: values.full_name.trim(),
        email,
        ...(changesEmail ? { current_password: values.current_password ?? '' } : {}),
      });
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(userKeys.me(), saved);
      notifySuccess(t('settings.userUpdated'));
    },
    onError: (error) => notifyError(error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
  return (
    <ProfileForm
      user={user}
      onSubmit={(values) =>
        update.mutateAsync(values).then(
          () => true,
          () => false,
        )
      }
    />
  );
}
