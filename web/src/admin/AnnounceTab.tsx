import {
  Badge,
  Button,
  Group,
  Modal,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  ANNOUNCEMENT_MESSAGE_MAX,
  ANNOUNCEMENT_TITLE_MAX,
  type Announcement,
  type AnnouncementAudience,
  type AnnouncementType,
} from '@sniplink/contracts';
import { useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../api/http';
import { DialogActions } from '../components/DialogActions';
import { ListTable } from '../components/ListTable';
import { toast } from '../components/toast';
import { announcementColors } from './AnnouncementBanners';
import {
  adminAnnouncementsQueryOptions,
  usePublishAnnouncement,
  useSetAnnouncementActive,
} from './announcementsApi';

const typeLabels: Record<AnnouncementType, string> = {
  info: 'Info',
  warning: 'Warning',
  success: 'Success',
  error: 'Error',
};

const audienceLabels: Record<AnnouncementAudience, string> = {
  all: 'All users',
  free: 'Free users',
  paid: 'Paid users',
  admin: 'Admins',
};

const options = <T extends string>(labels: Record<T, string>) =>
  Object.entries<string>(labels).map(([value, label]) => ({ value, label }));

const createdLabel = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The server's own words when it gave some (a 400 names the field), else the status line. */
const problemOf = (error: unknown) =>
  error instanceof ApiError ? (error.serverMessage ?? error.message) : 'Please try again.';

/** The Announce tab: the announcements, and a dialog to publish one. */
export function AnnounceTab() {
  const announcements = useSuspenseQuery(adminAnnouncementsQueryOptions());
  const [creating, dialog] = useDisclosure(false);
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2} size="h3">
          Announcements
        </Title>
        <Button onClick={dialog.open}>New Announcement</Button>
      </Group>
      {announcements.data.length === 0 ? (
        <Text c="dimmed">No announcements yet.</Text>
      ) : (
        <AnnouncementTable announcements={announcements.data} />
      )}
      <Modal opened={creating} onClose={dialog.close} title="New Announcement" centered size="lg">
        {/* The modal drops its content when closed: every opening starts from the defaults. */}
        <NewAnnouncementForm onDone={dialog.close} />
      </Modal>
    </Stack>
  );
}

function AnnouncementTable({ announcements }: { announcements: Announcement[] }) {
  return (
    <ListTable
      minWidth={760}
      verticalSpacing="sm"
      aria-label="Announcements"
      headings={['Title', 'Message', 'Type', 'Audience', 'Active', 'Created']}
    >
      {announcements.map((announcement) => (
        <AnnouncementRow key={announcement.id} announcement={announcement} />
      ))}
    </ListTable>
  );
}

function AnnouncementRow({ announcement }: { announcement: Announcement }) {
  const setActive = useSetAnnouncementActive();
  const toggle = (isActive: boolean) =>
    setActive.mutate(
      { id: announcement.id, isActive },
      {
        onSuccess: () => toast.success(isActive ? 'Announcement switched on' : 'Announcement switched off'),
        onError: (error) => toast.error('Error', problemOf(error)),
      },
    );
  return (
    <Table.Tr>
      <Table.Td fw={500}>{announcement.title}</Table.Td>
      <Table.Td maw={360}>
        <Text size="sm" lineClamp={2} style={{ whiteSpace: 'pre-line' }}>
          {announcement.message}
        </Text>
      </Table.Td>
      <Table.Td>
        <Badge color={announcementColors[announcement.type]} variant="dot">
          {typeLabels[announcement.type]}
        </Badge>
      </Table.Td>
      <Table.Td>{audienceLabels[announcement.targetAudience]}</Table.Td>
      <Table.Td>
        <Switch
          checked={announcement.isActive}
          disabled={setActive.isPending}
          onChange={(event) => toggle(event.currentTarget.checked)}
          aria-label={`Active: ${announcement.title}`}
        />
      </Table.Td>
      <Table.Td>
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {createdLabel(announcement.createdAt)}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

type FieldErrors = Partial<Record<'title' | 'message', string>>;

/** The create dialog's form, with its defaults: type info, audience all, active. */
function NewAnnouncementForm({ onDone }: { onDone(): void }) {
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  const [type, setType] = useState<AnnouncementType>('info');
  const [targetAudience, setTargetAudience] = useState<AnnouncementAudience>('all');
  const [isActive, setIsActive] = useState(true);
  const [errors, setErrors] = useState<FieldErrors>({});
  const publish = usePublishAnnouncement();

  const submit = () => {
    const missing: FieldErrors = {
      ...(title.trim() ? {} : { title: 'Title is required' }),
      ...(message.trim() ? {} : { message: 'Message is required' }),
    };
    setErrors(missing);
    if (Object.keys(missing).length > 0) return;
    publish.mutate(
      { title, message, type, targetAudience, isActive },
      {
        onSuccess: () => {
          toast.success('Announcement published');
          onDone();
        },
        onError: (error) => {
          const field = error instanceof ApiError ? error.field : undefined;
          if (field === 'title' || field === 'message') setErrors({ [field]: problemOf(error) });
          else toast.error('Error', problemOf(error));
        },
      },
    );
  };

  return (
    <form
      aria-label="New announcement"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="md">
        <TextInput
          label="Title"
          required
          maxLength={ANNOUNCEMENT_TITLE_MAX}
          value={title}
          error={errors.title}
          onChange={(event) => setTitle(event.currentTarget.value)}
        />
        <Textarea
          label="Message"
          description="Shown as plain text."
          required
          autosize
          minRows={3}
          maxRows={10}
          maxLength={ANNOUNCEMENT_MESSAGE_MAX}
          value={message}
          error={errors.message}
          onChange={(event) => setMessage(event.currentTarget.value)}
        />
        <Group grow align="flex-start">
          <Select
            label="Type"
            data={options(typeLabels)}
            value={type}
            allowDeselect={false}
            onChange={(value) => value && setType(value as AnnouncementType)}
          />
          <Select
            label="Audience"
            data={options(audienceLabels)}
            value={targetAudience}
            allowDeselect={false}
            onChange={(value) => value && setTargetAudience(value as AnnouncementAudience)}
          />
        </Group>
        <Switch
          label="Active"
          checked={isActive}
          onChange={(event) => setIsActive(event.currentTarget.checked)}
        />
        <DialogActions onCancel={onDone} type="submit" loading={publish.isPending}>
          Publish
        </DialogActions>
      </Stack>
    </form>
  );
}
