import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Card,
  Group,
  Menu,
  Modal,
  Pagination,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  useMatches,
} from '@mantine/core';
import { IconDots, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { userKeys } from '../../api/keys';
import {
  createUser,
  currentUserQueryOptions,
  deleteUser,
  updateUser,
  usersPageQueryOptions,
  USERS_PAGE_SIZE,
  type User,
} from '../../api/users';
import { confirmDestructive } from '../../components/confirm';
import { PageHeader } from '../../components/PageHeader';
import { notifyError, notifySuccess } from '../../lib/notify';
import { toUserCreate, toUserUpdate, UserForm, type UserFormValues } from './UserForm';

function pageCount(count: number, pageSize = USERS_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(count / pageSize));
}

type Dialog = { kind: 'create' } | { kind: 'edit'; user: User } | null;

const PAGINATION_LABELS = {
  first: 'admin.firstPage',
  previous: 'admin.previousPage',
  next: 'admin.nextPage',
  last: 'admin.lastPage',
} as const;

function FullName({ user }: { user: User }) {
  const { t } = useTranslation();
  return (
    <Text size="sm" fw={500} c={user.full_name ? undefined : 'dimmed'} truncate="end" maw={220}>
      {user.full_name || t('admin.notSet')}
    </Text>
  );
}

function Status({ active }: { active: boolean }) {
  const { t } = useTranslation();
  return (
    <Group gap={6} wrap="nowrap">
      <Box w={8} h={8} style={{ borderRadius: '50%' }} bg={active ? 'teal' : 'red'} aria-hidden />
      <Text size="sm">{active ? t('admin.active') : t('admin.inactive')}</Text>
    </Group>
  );
}

/** Edit User and Delete User; disabled for the signed-in user's own row. */
function UserActions({
  user,
  disabled,
  onEdit,
  onDelete,
}: {
  user: User;
  disabled: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Menu position="bottom-end" withinPortal disabled={disabled}>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          disabled={disabled}
          aria-label={t('admin.rowActions', { email: user.email })}
        >
          <IconDots size={18} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconPencil size={16} aria-hidden />} onClick={onEdit}>
          {t('admin.editUser')}
        </Menu.Item>
        <Menu.Item color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={onDelete}>
          {t('admin.deleteUser')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

function YouBadge() {
  const { t } = useTranslation();
  return (
    <Badge size="sm" variant="light" tt="none">
      {t('admin.you')}
    </Badge>
  );
}

export function AdminPage({ page }: { page: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: me } = useQuery(currentUserQueryOptions());
  const { data, isPending, isPlaceholderData } = useQuery({
    ...usersPageQueryOptions(page),
    placeholderData: keepPreviousData,
  });
  const [dialog, setDialog] = useState<Dialog>(null);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: userKeys.all });

  const create = useMutation({
    mutationFn: (values: UserFormValues) => createUser(toUserCreate(values)),
    onSuccess: () => {
      notifySuccess(t('admin.userCreated'));
      setDialog(null);
    },
    onError: (error) => notifyError(error),
    onSettled: invalidate,
  });

  const update = useMutation({
    mutationFn: ({ user, values }: { user: User; values: UserFormValues }) => updateUser(user.id, toUserUpdate(values)),
    onSuccess: () => {
      notifySuccess(t('admin.userUpdated'));
      setDialog(null);
    },
    onError: (error) => notifyError(error),
    onSettled: invalidate,
  });

  const remove = useMutation({
    mutationFn: (user: User) => deleteUser(user.id),
    onSuccess: () => notifySuccess(t('admin.userDeleted')),
    onError: (error) => notifyError(error, t('admin.deleteError')),
    onSettled: invalidate,
  });

  const askDelete = (user: User) =>
    confirmDestructive({
      title: t('admin.deleteUser'),
      text: t('admin.deleteText'),
      confirmLabel: t('admin.delete'),
      cancelLabel: t('admin.cancel'),
      onConfirm: () => remove.mutate(user),
    });

  const total = pageCount(data?.count ?? 0);
  // Phones: fewer page buttons, so the pagination stays on one line.
  const compact = useMatches({ base: true, sm: false });
  const goTo = (next: number) => void navigate({ to: '/admin', search: { page: next } });
  const ok = (promise: Promise<unknown>) =>
    promise.then(
      () => true,
      () => false,
    );

  return (
    <>
      <PageHeader
        title={t('admin.title')}
        actions={
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setDialog({ kind: 'create' })}>
            {t('admin.addUser')}
          </Button>
        }
      />
      <Paper withBorder radius="lg" style={{ overflow: 'hidden' }} visibleFrom="sm">
        <Table.ScrollContainer minWidth={640} type="native">
          <Table
            verticalSpacing="sm"
            horizontalSpacing="md"
            striped
            highlightOnHover
            data-testid="users-table"
            style={{ opacity: isPlaceholderData ? 0.6 : 1 }}
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('admin.fullName')}</Table.Th>
                <Table.Th>{t('admin.email')}</Table.Th>
                <Table.Th>{t('admin.role')}</Table.Th>
                <Table.Th>{t('admin.status')}</Table.Th>
                <Table.Th w={90}>{t('admin.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {isPending
                ? Array.from({ length: USERS_PAGE_SIZE }, (_, i) => (
                    <Table.Tr key={i} data-testid="skeleton-row">
                      {Array.from({ length: 5 }, (_, j) => (
                        <Table.Td key={j}>
                          <Skeleton height={18} />
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))
                : data?.data.map((user) => {
                    const isMe = user.id === me?.id;
                    return (
                      <Table.Tr key={user.id} data-testid="user-row">
                        <Table.Td>
                          <Group gap={6} wrap="nowrap">
                            <FullName user={user} />
                            {isMe ? <YouBadge /> : null}
                          </Group>
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm" truncate="end" maw={280}>
                            {user.email}
                          </Text>
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm">{user.is_superuser ? t('admin.superuser') : t('admin.user')}</Text>
                        </Table.Td>
                        <Table.Td>
                          <Status active={user.is_active} />
                        </Table.Td>
                        <Table.Td>
                          <UserActions
                            user={user}
                            disabled={isMe}
                            onEdit={() => setDialog({ kind: 'edit', user })}
                            onDelete={() => askDelete(user)}
                          />
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>

      {/* Phones: one card per user instead of a table wider than the screen. */}
      <Stack gap="sm" hiddenFrom="sm" data-testid="users-cards" style={{ opacity: isPlaceholderData ? 0.6 : 1 }}>
        {isPending
          ? Array.from({ length: USERS_PAGE_SIZE }, (_, i) => <Skeleton key={i} height={86} radius="lg" />)
          : data?.data.map((user) => {
              const isMe = user.id === me?.id;
              return (
                <Card key={user.id} withBorder radius="lg" padding="md">
                  <Group justify="space-between" wrap="nowrap" align="flex-start">
                    <Stack gap={4} style={{ minWidth: 0 }}>
                      <Group gap={6} wrap="nowrap">
                        <FullName user={user} />
                        {isMe ? <YouBadge /> : null}
                      </Group>
                      <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        {user.email}
                      </Text>
                      <Group gap="md">
                        <Text size="sm">{user.is_superuser ? t('admin.superuser') : t('admin.user')}</Text>
                        <Status active={user.is_active} />
                      </Group>
                    </Stack>
                    <UserActions
                      user={user}
                      disabled={isMe}
                      onEdit={() => setDialog({ kind: 'edit', user })}
                      onDelete={() => askDelete(user)}
                    />
                  </Group>
                </Card>
              );
            })}
      </Stack>
      <Group justify="flex-end" mt="md">
        <Pagination
          total={total}
          value={Math.min(page, total)}
          onChange={goTo}
          aria-label={t('admin.pagination')}
          withEdges={total > 5 && !compact}
          siblings={compact ? 0 : 1}
          getItemProps={(item) => ({ 'aria-current': item === Math.min(page, total) ? 'page' : undefined })}
          getControlProps={(control) => ({ 'aria-label': t(PAGINATION_LABELS[control]) })}
        />
      </Group>

      <Modal
        opened={dialog !== null}
        onClose={() => setDialog(null)}
        title={dialog?.kind === 'edit' ? t('admin.editUser') : t('admin.addUser')}
        centered
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {dialog?.kind === 'create' ? (
          <UserForm
            mode="create"
            onCancel={() => setDialog(null)}
            onSubmit={(values) => ok(create.mutateAsync(values))}
          />
        ) : null}
        {dialog?.kind === 'edit' ? (
          <UserForm
            key={dialog.user.id}
            mode="edit"
            user={dialog.user}
            onCancel={() => setDialog(null)}
            onSubmit={(values) => ok(update.mutateAsync({ user: dialog.user, values }))}
          />
        ) : null}
      </Modal>
    </>
  );
}
