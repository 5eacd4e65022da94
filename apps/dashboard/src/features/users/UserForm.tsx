import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Checkbox, Group, Stack, TextInput } from '@mantine/core';
import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { UserCreateDto, UserUpdateDto } from '@furnace/api-client';
import type { User } from '../../api/users';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { useErrorText } from '../../components/use-error-text';
import { FULL_NAME_MAX_LENGTH, userCreateSchema, userEditSchema, type UserEditValues } from '../../lib/validation';

/** Both forms share one shape; only the rules for the password differ (required on create). */
export type UserFormValues = UserEditValues;

export function userFormDefaults(user?: User): UserFormValues {
  return {
    email: user?.email ?? '',
    full_name: user?.full_name ?? '',
    password: '',
    confirm_password: '',
    is_superuser: user?.is_superuser ?? false,
    is_active: user?.is_active ?? true,
  };
}

export function toUserCreate(values: UserFormValues): UserCreateDto {
  return {
    email: values.email.trim(),
    full_name: values.full_name.trim() || null,
    password: values.password,
    is_superuser: values.is_superuser,
    is_active: values.is_active,
  };
}

/** The edit body: an empty password is left out (the user keeps the current one). */
export function toUserUpdate(values: UserFormValues): UserUpdateDto {
  const body: UserUpdateDto = {
    email: values.email.trim(),
    full_name: values.full_name.trim() || null,
    is_superuser: values.is_superuser,
    is_active: values.is_active,
  };
  if (values.password !== '') body.password = values.password;
  return body;
}

export interface UserFormProps {
  mode: 'create' | 'edit';
  user?: User;
  onSubmit: (values: UserFormValues) => Promise<boolean>;
  onCancel: () => void;
}

export function UserForm({ mode, user, onSubmit, onCancel }: UserFormProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  // Same value shape, different rules: the resolver types agree (both schemas' input is UserFormValues).
  const resolver: Resolver<UserFormValues> =
    mode === 'create' ? zodResolver(userCreateSchema) : zodResolver(userEditSchema);
  const {
    register,
    handleSubmit,
    control,
    formState: { errors, isValid, isSubmitting, isDirty },
  } = useForm<UserFormValues>({ mode: 'onTouched', resolver, defaultValues: userFormDefaults(user) });

  return (
    <form onSubmit={handleSubmit(async (values) => void (await onSubmit(values)))} noValidate>
      <Stack gap="md">
        <TextInput
          {...register('email')}
          label={t('admin.email')}
          type="email"
          autoComplete="off"
          error={errorText(errors.email)}
          required
          data-autofocus
        />
        <TextInput
          {...register('full_name')}
          label={t('admin.fullName')}
          maxLength={FULL_NAME_MAX_LENGTH}
          error={errorText(errors.full_name)}
        />
        <NewPasswordFields
          register={register}
          control={control}
          name="password"
          confirmName="confirm_password"
          label={t('admin.setPassword')}
          confirmLabel={t('admin.confirmPassword')}
          required={mode === 'create'}
        />
        <Group gap="xl">
          <Checkbox {...register('is_superuser')} label={t('admin.isSuperuser')} />
          <Checkbox {...register('is_active')} label={t('admin.isActive')} />
        </Group>
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onCancel} disabled={isSubmitting}>
            {t('admin.cancel')}
          </Button>
          <Button
            type="submit"
            disabled={!isValid || isSubmitting || (mode === 'edit' && !isDirty)}
            loading={isSubmitting}
          >
            {t('admin.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
