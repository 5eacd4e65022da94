import { isHttpUrl, PASSWORD_MIN_LENGTH, type ThermoConfigError } from '@furnace/contracts';
import { z } from 'zod';
import { LANGUAGES } from '@furnace/text';
import type { ValidationKey } from '../i18n';
import { testProfileFormSchema } from './profile-form';
import { testReportFormSchema } from './report-form';

/*
 * The forms' rules (docs/behaviour.md §5). Messages are i18n keys (ValidationKey); a form translates them when it
 * shows them, so a language change re-renders them.
 */

export const FULL_NAME_MIN_LENGTH = 3;
export const FULL_NAME_MAX_LENGTH = 30;

/** The standard e-mail pattern (local@domain.tld). */
const EMAIL_PATTERN = /^[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}$/i;

const msg = (key: ValidationKey) => key;

/** A required e-mail: `required` when empty, 'Niepoprawny adres email' when malformed. */
const emailField = (required: ValidationKey) =>
  z.string().trim().min(1, msg(required)).regex(EMAIL_PATTERN, msg('validation.emailInvalid'));

/** The shared password rules: 'Podaj hasło' when empty, at least 8 characters. */
const passwordField = (required: ValidationKey = 'validation.passwordRequired') =>
  z.string().min(1, msg(required)).min(PASSWORD_MIN_LENGTH, msg('validation.passwordMin'));

const confirmField = (required: ValidationKey = 'validation.confirmRequired') => z.string().min(1, msg(required));

/** Checks confirm_password against `field` even while other fields are still invalid. */
function matching<T extends { confirm_password: string }>(field: keyof T & string) {
  return {
    check: (values: T) => values.confirm_password === '' || values.confirm_password === values[field],
    params: {
      path: ['confirm_password'],
      message: msg('validation.passwordsMismatch'),
      when: () => true,
    },
  };
}

// --- Accounts -------------------------------------------------------------------------------------

export const loginSchema = z.object({
  username: emailField('validation.loginEmailRequired'),
  password: passwordField(),
});
export type LoginValues = z.input<typeof loginSchema>;

const signupBase = z.object({
  full_name: z
    .string()
    .trim()
    .min(1, msg('validation.fullNameRequired'))
    .min(FULL_NAME_MIN_LENGTH, msg('validation.fullNameMin')),
  email: emailField('validation.emailRequired'),
  password: passwordField(),
  confirm_password: confirmField(),
});
const signupMatch = matching<z.input<typeof signupBase>>('password');
export const signupSchema = signupBase.refine(signupMatch.check, signupMatch.params);
export type SignupValues = z.input<typeof signupSchema>;

export const recoverSchema = z.object({ email: emailField('validation.emailRequired') });
export type RecoverValues = z.input<typeof recoverSchema>;

const resetBase = z.object({ new_password: passwordField(), confirm_password: confirmField() });
const resetMatch = matching<z.input<typeof resetBase>>('new_password');
export const resetSchema = resetBase.refine(resetMatch.check, resetMatch.params);
export type ResetValues = z.input<typeof resetSchema>;

// --- Settings ------------------------------------------------------------------------------------

export const profileSchema = z.object({
  full_name: z.string().trim().max(FULL_NAME_MAX_LENGTH, msg('validation.fullNameMax')),
  email: emailField('validation.emailRequired'),
  /** Asked for, and sent, only when the e-mail changes: the API requires it then. */
  current_password: z.string().optional(),
});
export type ProfileValues = z.input<typeof profileSchema>;

const changePasswordBase = z.object({
  current_password: passwordField(),
  new_password: passwordField(),
  confirm_password: confirmField(),
});
const changePasswordMatch = matching<z.input<typeof changePasswordBase>>('new_password');
export const changePasswordSchema = changePasswordBase.refine(changePasswordMatch.check, changePasswordMatch.params);
export type ChangePasswordValues = z.input<typeof changePasswordSchema>;

// --- Admin ---------------------------------------------------------------------------------------

const userBase = {
  email: emailField('validation.emailRequired'),
  full_name: z.string().trim().max(FULL_NAME_MAX_LENGTH, msg('validation.fullNameMax')),
  is_superuser: z.boolean(),
  is_active: z.boolean(),
};

const userCreateBase = z.object({
  ...userBase,
  password: passwordField('validation.userPasswordRequired'),
  confirm_password: confirmField('validation.userConfirmRequired'),
});
const userCreateMatch = matching<z.input<typeof userCreateBase>>('password');
export const userCreateSchema = userCreateBase.refine(userCreateMatch.check, userCreateMatch.params);

const userEditBase = z.object({
  ...userBase,
  // Optional on edit: empty keeps the current password (and is left out of the request).
  password: z.union([z.literal(''), z.string().min(PASSWORD_MIN_LENGTH, msg('validation.passwordMin'))]),
  confirm_password: z.string(),
});
export const userEditSchema = userEditBase.refine((v) => v.confirm_password === v.password, {
  path: ['confirm_password'],
  message: msg('validation.passwordsMismatch'),
  when: () => true,
});
export type UserEditValues = z.input<typeof userEditSchema>;

// --- Research ------------------------------------------------------------------------------------

const datetimeField = (required: ValidationKey) => z.string().min(1, msg(required));

const researchBasicShape = {
  name: z.string().trim().min(1, msg('validation.researchNameRequired')),
  start_at: datetimeField('validation.startRequired'),
  end_at: datetimeField('validation.endRequired'),
  is_radiance: z.boolean(),
  is_furnance: z.boolean(),
  is_pressure: z.boolean(),
  /** The furnace the test is scheduled on, or null (docs/behaviour.md §15). */
  furnace_id: z.string().nullable(),
  /** The test profile (standard, heating curve, criteria basis…): see profile-form.ts. */
  profile: testProfileFormSchema,
  classification_to_clients: z.boolean(),
  /** What the test report states (EN 1363-1 §12): see report-form.ts. */
  report: testReportFormSchema,
};

/** The end must come after the start (both datetime-local strings of the same form). */
const endAfterStart = {
  check: (v: { start_at: string; end_at: string }) => v.start_at === '' || v.end_at === '' || v.end_at > v.start_at,
  params: { path: ['end_at'], message: msg('validation.endBeforeStart'), when: () => true },
};

export const researchBasicSchema = z.object(researchBasicShape).refine(endAfterStart.check, endAfterStart.params);
export type ResearchBasicValues = z.input<typeof researchBasicSchema>;

/** A stream link: `required` when empty (the edit page's copy of the spec says 'Email jest wymagany'). */
const linkField = (required: ValidationKey) =>
  z.string().trim().min(1, msg(required)).refine(isHttpUrl, msg('validation.linkInvalid'));

const IMAGE_TYPES = ['image/png', 'image/jpeg'] as const;

function isImageFile(file: File): boolean {
  return (IMAGE_TYPES as readonly string[]).includes(file.type) || /\.(png|jpe?g)$/i.test(file.name);
}

function isConfigFile(file: File): boolean {
  return /\.txt$/i.test(file.name) && (file.type === '' || file.type.startsWith('text/'));
}

/** What reading a chosen config file found: its markers, or its errors by line and field. */
export type ConfigCheck = { ok: true; markers: number } | { ok: false; errors: readonly ThermoConfigError[] };

const fileField = z.custom<File | null>((value) => value === null || value instanceof File);
const configCheckField = z.custom<ConfigCheck | null>();

/** One photo + config pair: both files (or 'Nie wybrano plików'), the right types, a readable config. */
export const thermoPairSchema = z
  .object({ image: fileField, config: fileField, check: configCheckField })
  .superRefine((pair, ctx) => {
    if (!pair.image || !pair.config) {
      ctx.addIssue({
        code: 'custom',
        path: [pair.image ? 'config' : 'image'],
        message: msg('validation.filesMissing'),
      });
      return;
    }
    if (!isImageFile(pair.image))
      ctx.addIssue({ code: 'custom', path: ['image'], message: msg('validation.imageType') });
    if (!isConfigFile(pair.config))
      ctx.addIssue({ code: 'custom', path: ['config'], message: msg('validation.configType') });
    else if (pair.check && !pair.check.ok)
      ctx.addIssue({ code: 'custom', path: ['config'], message: msg('validation.configInvalid') });
  });
export type ThermoPairValues = z.input<typeof thermoPairSchema>;

export const researchCreateSchema = z
  .object({
    ...researchBasicShape,
    links: z.array(z.object({ url: linkField('validation.linkRequired') })),
    configs: z.array(thermoPairSchema),
    emails: z.array(z.object({ email: emailField('validation.clientEmailRequired') })),
  })
  .refine(endAfterStart.check, endAfterStart.params);
export type ResearchCreateValues = z.input<typeof researchCreateSchema>;

export const addUrlSchema = z.object({ url: linkField('validation.clientEmailRequired') });
export type AddUrlValues = z.input<typeof addUrlSchema>;

export const addEmailSchema = z.object({
  email: emailField('validation.clientEmailRequired'),
  lang: z.enum(LANGUAGES),
});
export type AddEmailValues = z.input<typeof addEmailSchema>;
