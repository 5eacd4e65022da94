import { Anchor, Box, Card, Code, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/dates';
import { actionLabel, type AuditEntry, type ChangeLine, describeChange, entityLabel } from './audit-format';

/** One field: "label: before → after", a removed value struck through. */
function Change({ change }: { change: ChangeLine }) {
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="audit-change">
      <Text span fw={600} size="sm">
        {change.label}:
      </Text>{' '}
      {change.before !== null ? (
        <Text span size="sm" c="dimmed" td={change.after === null ? 'line-through' : undefined}>
          {change.before}
        </Text>
      ) : null}
      {change.before !== null && change.after !== null ? ' → ' : null}
      {change.after !== null ? (
        <Text span size="sm">
          {change.after}
        </Text>
      ) : null}
      {change.note ? (
        <Text span size="xs" c="dimmed">
          {' '}
          ({change.note})
        </Text>
      ) : null}
    </Text>
  );
}

function Values({ title, values }: { title: string; values: object | null }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {title}
      </Text>
      <Code block style={{ maxHeight: 240, overflow: 'auto', fontSize: 11 }}>
        {values ? JSON.stringify(values, null, 2) : '—'}
      </Code>
    </Stack>
  );
}

/** The entry's changed fields, and the whole entry on demand. */
function Changes({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation('audit');
  const [open, setOpen] = useState(false);
  return (
    <Stack gap={2}>
      {describeChange(entry, t).map((change) => (
        <Change key={change.field} change={change} />
      ))}
      {entry.before || entry.after ? (
        <Group>
          <Anchor component="button" type="button" size="xs" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
            {open ? t('hideDetails') : t('details')}
          </Anchor>
        </Group>
      ) : null}
      {open ? (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xs">
          <Values title={t('before')} values={entry.before} />
          <Values title={t('after')} values={entry.after} />
        </SimpleGrid>
      ) : null}
    </Stack>
  );
}

function AuditRow({ entry, showResearch }: { entry: AuditEntry; showResearch: boolean }) {
  const { t } = useTranslation('audit');
  return (
    <Table.Tr data-testid="audit-row">
      <Table.Td style={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
        <Text size="sm">{formatDateTime(entry.at)}</Text>
      </Table.Td>
      <Table.Td style={{ verticalAlign: 'top', overflowWrap: 'anywhere' }}>
        <Text size="sm" c={entry.actor ? undefined : 'dimmed'}>
          {entry.actor ?? t('system')}
        </Text>
      </Table.Td>
      {showResearch ? (
        <Table.Td style={{ verticalAlign: 'top', overflowWrap: 'anywhere' }}>
          <Text size="sm" c={entry.research_name ? undefined : 'dimmed'}>
            {entry.research_id ? (entry.research_name ?? t('deletedResearch')) : t('none')}
          </Text>
        </Table.Td>
      ) : null}
      <Table.Td style={{ verticalAlign: 'top' }}>
        <Text size="sm" fw={600}>
          {entityLabel(entry.entity, t)}
        </Text>
        <Text size="xs" c="dimmed">
          {actionLabel(entry.action, t)}
        </Text>
      </Table.Td>
      <Table.Td style={{ verticalAlign: 'top' }}>
        <Changes entry={entry} />
      </Table.Td>
    </Table.Tr>
  );
}

/** Phones: one card per entry instead of a table wider than the screen. */
function AuditCard({ entry, showResearch }: { entry: AuditEntry; showResearch: boolean }) {
  const { t } = useTranslation('audit');
  return (
    <Card withBorder radius="md" padding="sm" data-testid="audit-card">
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {formatDateTime(entry.at)} · {entry.actor ?? t('system')}
      </Text>
      {showResearch && entry.research_id ? (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {entry.research_name ?? t('deletedResearch')}
        </Text>
      ) : null}
      <Text size="sm" fw={600} mt={4}>
        {entityLabel(entry.entity, t)}{' '}
        <Text span size="xs" c="dimmed" fw={400}>
          {actionLabel(entry.action, t)}
        </Text>
      </Text>
      <Box mt={4}>
        <Changes entry={entry} />
      </Box>
    </Card>
  );
}

/** The entries of an audit trail, newest first: when, who, (the test,) what, and the change. */
export function AuditTable({ entries, showResearch = false }: { entries: AuditEntry[]; showResearch?: boolean }) {
  const { t } = useTranslation('audit');
  return (
    <>
      <Box visibleFrom="sm">
        <Table.ScrollContainer minWidth={showResearch ? 820 : 640} type="native">
          <Table verticalSpacing="xs" horizontalSpacing="sm" striped data-testid="audit-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={170}>{t('at')}</Table.Th>
                <Table.Th w={200}>{t('actor')}</Table.Th>
                {showResearch ? <Table.Th w={180}>{t('research')}</Table.Th> : null}
                <Table.Th w={170}>{t('what')}</Table.Th>
                <Table.Th>{t('change')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((entry) => (
                <AuditRow key={entry.id} entry={entry} showResearch={showResearch} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Box>
      <Stack gap="xs" hiddenFrom="sm">
        {entries.map((entry) => (
          <AuditCard key={entry.id} entry={entry} showResearch={showResearch} />
        ))}
      </Stack>
    </>
  );
}
