import { useEffect, useMemo } from 'react';
import { useWatch, type FieldValues, type UseFormReturn } from 'react-hook-form';

interface SafeParser {
  safeParse: (value: unknown) => { success: boolean };
}

/**
 * For a form in 'onBlur' mode (whose formState.isValid only moves on blur):
 * - returns whether the current values pass `schema`, recomputed on every change, so that the
 *   submit button follows what is typed;
 * - re-checks a field that shows a message as it is edited, so the message goes as soon as the
 *   value is fixed (instead of on the next blur, which would move the layout under the pointer).
 */
export function useLiveValidity<T extends FieldValues>(form: UseFormReturn<T>, schema: SafeParser): boolean {
  const { control, watch, getFieldState, trigger } = form;
  const values = useWatch({ control });

  useEffect(() => {
    const subscription = watch((_values, { name, type }) => {
      if (type === 'change' && name && getFieldState(name).invalid) void trigger(name);
    });
    return () => subscription.unsubscribe();
  }, [watch, getFieldState, trigger]);

  return useMemo(() => schema.safeParse(values).success, [schema, values]);
}
