import {
  type Control,
  type FieldError,
  type FieldValues,
  get,
  type Path,
  type UseFormRegister,
  useFormState,
  useWatch,
} from 'react-hook-form';
import { PasswordField } from './PasswordField';
import { PasswordStrengthBar } from './PasswordStrengthBar';
import { useErrorText } from './use-error-text';

interface NewPasswordFieldsProps<T extends FieldValues> {
  register: UseFormRegister<T>;
  control: Control<T>;
  /** The new password's field and its repetition's. */
  name: Path<T>;
  confirmName: Path<T>;
  label: string;
  confirmLabel: string;
  required?: boolean;
}

/** A new password with its strength bar, and the field that repeats it: the pair every form that sets a password shows. */
export function NewPasswordFields<T extends FieldValues>({
  register,
  control,
  name,
  confirmName,
  label,
  confirmLabel,
  required = true,
}: NewPasswordFieldsProps<T>) {
  const errorText = useErrorText();
  const { errors } = useFormState({ control, name: [name, confirmName] });
  const password: unknown = useWatch({ control, name });
  return (
    <>
      <div>
        <PasswordField
          {...register(name)}
          label={label}
          autoComplete="new-password"
          error={errorText(get(errors, name) as FieldError | undefined)}
          required={required}
        />
        <PasswordStrengthBar password={typeof password === 'string' ? password : ''} />
      </div>
      <PasswordField
        {...register(confirmName)}
        label={confirmLabel}
        autoComplete="new-password"
        error={errorText(get(errors, confirmName) as FieldError | undefined)}
        required={required}
      />
    </>
  );
}
