import { Modal, Text } from '@mantine/core';
import type { Link } from '@sniplink/contracts';
import { DialogActions } from '../components/DialogActions';
import { toast } from '../components/toast';
import { useDeleteLink } from './api';

interface DeleteLinkDialogProps {
  link: Link;
  opened: boolean;
  onClose: () => void;
}

export function DeleteLinkDialog({ link, opened, onClose }: DeleteLinkDialogProps) {
  const deleteLink = useDeleteLink();
  // Not mutate's own callbacks: the refreshed list drops this card, and with it this dialog, before the
  // mutation settles, and TanStack Query skips those callbacks once their component has unmounted.
  const confirm = () =>
    deleteLink.mutateAsync(link.id).then(
      () => {
        toast.success('Link deleted successfully!');
        onClose();
      },
      () => toast.error('Error', 'Failed to delete link'),
    );

  return (
    <Modal opened={opened} onClose={onClose} title="Delete Link" centered>
      <Text>Are you sure you want to delete this link? This action cannot be undone.</Text>
      <DialogActions onCancel={onClose} mt="lg" color="red" onClick={confirm} loading={deleteLink.isPending}>
        Delete
      </DialogActions>
    </Modal>
  );
}
