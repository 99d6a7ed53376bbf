import { Badge, Group } from '@mantine/core';
import type { Link } from '@sniplink/contracts';
import { IconLock } from '@tabler/icons-react';
import { targetingRulesText } from './linkForm';
import { type LinkNote, linkNotes } from './linkStatus';

const noteColors: Record<LinkNote['kind'], string> = {
  paused: 'gray',
  expired: 'red',
  expires: 'blue',
  clicks: 'blue',
  password: 'gray',
};

/**
 * What the link's controls mean for its visitors now ("Paused", "Expires in 3 days", "3 of 10 clicks
 * left", "Password"), how many targeting rules it has, and its tags, under the link on its card; nothing for a
 * link without any.
 */
export function LinkNotes({ link }: { link: Link }) {
  const notes = linkNotes(link, new Date());
  if (notes.length === 0 && link.tags.length === 0 && link.rules.length === 0) return null;
  const expiry = link.expiresAt === null ? undefined : new Date(link.expiresAt).toLocaleString();
  return (
    <Group gap={6} mt={6}>
      {notes.map((note) => (
        <Badge
          key={note.kind}
          size="sm"
          variant="light"
          tt="none"
          color={noteColors[note.kind]}
          leftSection={note.kind === 'password' ? <IconLock size={12} aria-hidden /> : undefined}
          title={note.kind === 'expires' ? expiry : undefined}
        >
          {note.text}
        </Badge>
      ))}
      {link.rules.length > 0 && (
        <Badge size="sm" variant="light" color="grape" tt="none">
          {targetingRulesText(link.rules.length)}
        </Badge>
      )}
      {link.tags.map((tag) => (
        <Badge key={`tag-${tag}`} size="sm" variant="outline" color="gray" tt="none">
          {tag}
        </Badge>
      ))}
    </Group>
  );
}
