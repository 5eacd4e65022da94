import { Box, Center, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './AuthCard.module.css';
import { Logo } from './Logo';

/** The frame of the pages outside the authenticated layout: logo, title, a card with the form. */
export function AuthCard({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <Center p="md" className={classes.page}>
      <Box w="100%" maw={420}>
        <Stack gap="lg">
          <Center>
            <Logo size="lg" />
          </Center>
          <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', xs: 'xl' }}>
            <Stack gap="md">
              <Title order={1} fz={24}>
                {title}
              </Title>
              {description ? (
                <Text c="dimmed" size="sm">
                  {description}
                </Text>
              ) : null}
              {children}
            </Stack>
          </Paper>
        </Stack>
      </Box>
    </Center>
  );
}
