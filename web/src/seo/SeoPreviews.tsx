import { AspectRatio, Box, Center, Image, Paper, Stack, Text } from '@mantine/core';
import { seoGuidance } from '@sniplink/contracts';
import { useState } from 'react';

/** This site's address as the browser has it: the previews show the page where it is served. */
const siteAddress = (path: string) => ({
  host: window.location.host,
  url: `${window.location.origin}${path}`,
});

/** A search engine's result for the page, as typed: its address, its title in blue, its description. */
export function SearchPreview({
  title,
  description,
  path,
}: {
  title: string;
  description: string;
  path: string;
}) {
  const { host, url } = siteAddress(path);
  return (
    <Paper component="section" withBorder p="md" radius="md" aria-label="Search result preview">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} mb="xs">
        Search result preview
      </Text>
      <Text size="sm" c="#202124" lineClamp={1}>
        {host}
      </Text>
      <Text size="xs" c="#4d5156" lineClamp={1} mb={4}>
        {url}
      </Text>
      <Text fz={20} lh={1.3} c="#1a0dab" lineClamp={1} data-preview="title">
        {title || 'Page title'}
      </Text>
      <Text size="sm" c="#4d5156" lineClamp={2} data-preview="description">
        {description}
      </Text>
    </Paper>
  );
}

/** A share card as social networks and chat apps draw it: the image, the site, the title and description. */
export function SharePreview({
  title,
  description,
  image,
  path,
}: {
  title: string;
  description: string;
  image: string | null;
  path: string;
}) {
  const { host } = siteAddress(path);
  return (
    <Paper
      component="section"
      withBorder
      radius="md"
      aria-label="Social share preview"
      style={{ overflow: 'hidden' }}
    >
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} p="md" pb="xs">
        Social share preview
      </Text>
      <ShareImage image={image} />
      <Stack gap={2} p="md" bg="gray.0">
        <Text size="xs" c="dimmed" tt="uppercase">
          {host}
        </Text>
        <Text fw={600} lineClamp={2} data-preview="og-title">
          {title || 'Page title'}
        </Text>
        <Text size="sm" c="dimmed" lineClamp={2} data-preview="og-description">
          {description}
        </Text>
      </Stack>
    </Paper>
  );
}

interface ImageOutcome {
  for: string;
  /** Its size once loaded; null: the browser could not load it. */
  size: { width: number; height: number } | null;
}

/** The card's image at the 1200×630 shape, and its size against that suggestion once it has loaded. */
function ShareImage({ image }: { image: string | null }) {
  const [outcome, setOutcome] = useState<ImageOutcome | null>(null);
  const { width, height } = seoGuidance.image;
  const current = outcome && outcome.for === image ? outcome : null;
  const failed = current !== null && current.size === null;
  const size = current?.size;
  return (
    <Box>
      <AspectRatio ratio={width / height}>
        {image && !failed ? (
          <Image
            src={image}
            alt="The page's share image"
            fit="cover"
            onLoad={(event) =>
              setOutcome({
                for: image,
                size: { width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight },
              })
            }
            onError={() => setOutcome({ for: image, size: null })}
          />
        ) : (
          <Center bg="gray.1" p="md">
            <Text size="sm" c="dimmed" ta="center">
              {failed
                ? 'The image could not be loaded from this address'
                : `No image: add an OG image (${width}×${height})`}
            </Text>
          </Center>
        )}
      </AspectRatio>
      {size && (
        <Text size="xs" c="dimmed" px="md" pt="xs">
          Image is {size.width}×{size.height}
          {size.width === width && size.height === height ? '' : `; ${width}×${height} suggested`}
        </Text>
      )}
    </Box>
  );
}
