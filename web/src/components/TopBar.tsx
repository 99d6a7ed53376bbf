import { Anchor, Box, Container } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { brandName } from './PageTitle';

export function TopBar() {
  return (
    <Box component="header" py="md" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
      <Container size="lg">
        <Anchor component={Link} to="/" c="inherit" fw={700} fz="xl" underline="never">
          {brandName}
        </Anchor>
      </Container>
    </Box>
  );
}
