import {
  publicConfigGet,
  authLogin,
  authRecover,
  authReset,
  usersCreate,
  usersDelete,
  usersDeleteMe,
  usersList,
  usersMe,
  usersSignup,
  usersUpdate,
  usersUpdateMe,
  usersUpdatePassword,
  type UserCreateDto,
  type UserPublicDto,
  type UserRegisterDto,
  type UsersPublicDto,
  type UserUpdateDto,
  type UserUpdateMeDto,
} from '@furnace/api-client';
import type { Language } from '@furnace/text';
import { queryOptions } from '@tanstack/react-query';
import { unwrap } from './errors';
import { userKeys } from './keys';

export type User = UserPublicDto;

/** Admin list page size (docs/behaviour.md §9): skip = (page - 1) * 5, limit 5. */
export const USERS_PAGE_SIZE = 5;

export const currentUserQueryOptions = () =>
  queryOptions({
    queryKey: userKeys.me(),
    queryFn: ({ signal }) => unwrap(usersMe({ signal })),
    staleTime: 60_000,
  });

export const usersPageQueryOptions = (page: number) =>
  queryOptions({
    queryKey: userKeys.page(page),
    queryFn: ({ signal }): Promise<UsersPublicDto> =>
      unwrap(usersList({ query: { skip: (page - 1) * USERS_PAGE_SIZE, limit: USERS_PAGE_SIZE }, signal })),
    placeholderData: (previous) => previous,
  });

/** What the API tells anyone before sign-in: whether self sign-up is open (SIGNUP). */
export const publicConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['public-config'] as const,
    queryFn: ({ signal }) => unwrap(publicConfigGet({ signal })),
    staleTime: Number.POSITIVE_INFINITY,
  });

export async function logIn(username: string, password: string): Promise<string> {
  const token = await unwrap(authLogin({ body: { username, password } }));
  return token.access_token;
}

export const signUp = (body: UserRegisterDto) => unwrap(usersSignup({ body }));
/** The e-mail comes in `lang`, the language the dashboard is shown in (docs/behaviour.md §1). */
export const recoverPassword = (email: string, lang: Language) =>
  unwrap(authRecover({ path: { email }, query: { lang } }));
export const resetPassword = (token: string, newPassword: string) =>
  unwrap(authReset({ body: { token, new_password: newPassword } }));

export const updateMe = (body: UserUpdateMeDto) => unwrap(usersUpdateMe({ body }));
export const changePassword = (currentPassword: string, newPassword: string) =>
  unwrap(usersUpdatePassword({ body: { current_password: currentPassword, new_password: newPassword } }));
export const deleteMe = () => unwrap(usersDeleteMe());

export const createUser = (body: UserCreateDto) => unwrap(usersCreate({ body }));
export const updateUser = (userId: string, body: UserUpdateDto) =>
  unwrap(usersUpdate({ path: { user_id: userId }, body }));
export const deleteUser = (userId: string) => unwrap(usersDelete({ path: { user_id: userId } }));
