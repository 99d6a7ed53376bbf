import { Alert, Stack, Text } from '@mantine/core';
import type { AnnouncementType, UserAnnouncement } from '@sniplink/contracts';
import { useQuery } from '@tanstack/react-query';
import { toast } from '../components/toast';
import { useDismissAnnouncement, userAnnouncementsQueryOptions } from './announcementsApi';

/** A banner's colour by the announcement's type. */
export const announcementColors: Record<AnnouncementType, string> = {
  info: 'blue',
  warning: 'orange',
  success: 'green',
  error: 'red',
};

/**
 * The announcements for the signed-in user, on the dashboard: one banner each in its type's colour, each
 * closed for good by its close button. Title and message are React text, never HTML.
 */
export function AnnouncementBanners() {
  const { data } = useQuery(userAnnouncementsQueryOptions());
  const dismiss = useDismissAnnouncement();
  if (!data?.length) return null;
  const close = (id: string) =>
    dismiss.mutate(id, {
      onError: () => toast.error('Error', 'The announcement could not be dismissed. Please try again.'),
    });
  return (
    <Stack gap="sm" aria-label="Announcements" component="section">
      {data.map((announcement) => (
        <AnnouncementBanner key={announcement.id} announcement={announcement} onClose={close} />
      ))}
    </Stack>
  );
}

/**
 * The type's colour on the background and a bar at the start; the title in the text colour, since
 * orange's and yellow's own shades on their light backgrounds stay under 4.5:1.
 */
const bannerStyles = (color: string) => ({
  root: { borderInlineStart: `4px solid var(--mantine-color-${color}-filled)` },
  title: { color: 'var(--mantine-color-text)' },
});

function AnnouncementBanner({
  announcement,
  onClose,
}: {
  announcement: UserAnnouncement;
  onClose(id: string): void;
}) {
  return (
    <Alert
      color={announcementColors[announcement.type]}
      variant="light"
      title={announcement.title}
      withCloseButton
      closeButtonLabel={`Dismiss announcement: ${announcement.title}`}
      onClose={() => onClose(announcement.id)}
      data-type={announcement.type}
      styles={bannerStyles(announcementColors[announcement.type])}
    >
      <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
        {announcement.message}
      </Text>
    </Alert>
  );
}
