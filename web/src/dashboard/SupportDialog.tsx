import { Button, Group, Modal, Text } from '@mantine/core';

export function SupportDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Support Center" centered>
      <Text>
        Support tickets are coming soon. You will be able to open a ticket and talk to us right here.
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button onClick={onClose}>Close</Button>
      </Group>
    </Modal>
  );
}
