import { Divider, Modal, SimpleGrid, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  isHttpsUrl,
  keywordsOf,
  SEO_DESCRIPTION_MAX,
  SEO_IMAGE_URL_MAX,
  SEO_KEYWORDS_MAX,
  SEO_TITLE_MAX,
  type SeoEntry,
  type SeoPage,
  seoGuidance,
  seoPages,
} from '@sniplink/contracts';
import { documentTitle, pages } from '@sniplink/contracts/pages';
import { ApiError } from '../api/http';
import { DialogActions } from '../components/DialogActions';
import { toast } from '../components/toast';
import { useSaveSeo } from './api';
import { hasPageCopy, PageCopyEditor } from './pageCopyEditors';
import { pageNames } from './pageNames';
import { SearchPreview, SharePreview } from './SeoPreviews';

const fields = ['title', 'description', 'keywords', 'ogTitle', 'ogDescription', 'ogImage'] as const;

/** A page's SEO editor: the form, and the previews of a search result and a share card as they are typed. */
export function SeoEditor({
  page,
  entry,
  onClose,
}: {
  page: SeoPage;
  entry: SeoEntry | undefined;
  onClose(): void;
}) {
  return (
    <Modal
      opened
      onClose={onClose}
      title={`SEO settings: ${pageNames[page]} (${seoPages[page]})`}
      size="xl"
      centered
    >
      <SeoForm page={page} entry={entry} onDone={onClose} />
      {hasPageCopy(page) && (
        <>
          <Divider my="lg" />
          <PageCopyEditor page={page} />
        </>
      )}
    </Modal>
  );
}

/** What the page shows while it has no entry: its own title (with the brand) and description. */
const ownHead = (page: SeoPage) => {
  const own = pages[seoPages[page]];
  return { title: documentTitle(own.title), description: own.description };
};

function SeoForm({ page, entry, onDone }: { page: SeoPage; entry: SeoEntry | undefined; onDone(): void }) {
  const own = ownHead(page);
  const form = useForm({
    initialValues: {
      title: entry?.title ?? own.title,
      description: entry?.description ?? own.description,
      keywords: entry?.keywords ?? '',
      ogTitle: entry?.ogTitle ?? '',
      ogDescription: entry?.ogDescription ?? '',
      ogImage: entry?.ogImage ?? '',
      isPublic: entry?.isPublic ?? true,
    },
    validate: {
      title: (title) => (title.trim() ? null : 'Title is required'),
      ogImage: (url) =>
        url.trim() === '' || isHttpsUrl(url.trim()) ? null : 'Must be an https URL (https://…)',
    },
  });
  const save = useSaveSeo();
  const { values } = form;
  // What the page will carry: blanks fall back as the server's do.
  const shown = {
    title: values.title.trim(),
    description: values.description.trim() || own.description,
    ogTitle: values.ogTitle.trim() || values.title.trim(),
    ogDescription: values.ogDescription.trim() || values.description.trim() || own.description,
    ogImage: isHttpsUrl(values.ogImage.trim()) ? values.ogImage.trim() : null,
  };

  const submit = form.onSubmit((typed) =>
    save.mutate(
      { page, body: { page, ...typed } },
      {
        onSuccess: () => {
          toast.success('SEO settings updated successfully');
          onDone();
        },
        onError: (error) => {
          const field = error instanceof ApiError ? error.field : undefined;
          const onField = fields.find((name) => name === field);
          if (onField && error instanceof ApiError) {
            form.setFieldError(onField, error.serverMessage ?? error.message);
          }
          toast.error('Error', 'Failed to update SEO settings');
        },
      },
    ),
  );

  const keywordCount = keywordsOf(values.keywords).length;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
      <form aria-label={`SEO settings of ${pageNames[page]}`} noValidate onSubmit={submit}>
        <Stack gap="sm">
          <TextInput
            label="Title"
            required
            maxLength={SEO_TITLE_MAX}
            description={lengthGuidance(values.title, seoGuidance.title)}
            {...form.getInputProps('title')}
          />
          <Textarea
            label="Description"
            autosize
            minRows={2}
            maxRows={5}
            maxLength={SEO_DESCRIPTION_MAX}
            description={lengthGuidance(values.description, seoGuidance.description)}
            {...form.getInputProps('description')}
          />
          <TextInput
            label="Keywords"
            placeholder="link shortener, click tracking"
            maxLength={SEO_KEYWORDS_MAX}
            description={`Comma-separated; ${keywordCount} ${keywordCount === 1 ? 'keyword' : 'keywords'}`}
            {...form.getInputProps('keywords')}
          />
          <Divider label="Open Graph (link previews)" labelPosition="left" />
          <TextInput
            label="OG title"
            placeholder="The title, when left blank"
            maxLength={SEO_TITLE_MAX}
            {...form.getInputProps('ogTitle')}
          />
          <Textarea
            label="OG description"
            placeholder="The description, when left blank"
            autosize
            minRows={2}
            maxRows={4}
            maxLength={SEO_DESCRIPTION_MAX}
            {...form.getInputProps('ogDescription')}
          />
          <TextInput
            label="OG image"
            type="url"
            inputMode="url"
            placeholder="https://…"
            maxLength={SEO_IMAGE_URL_MAX}
            description={`An https URL; ${seoGuidance.image.width}×${seoGuidance.image.height} pixels suggested`}
            {...form.getInputProps('ogImage')}
          />
          <Switch
            label="Public"
            description="Off: the page keeps its own title and tags, and the sitemap leaves it out"
            {...form.getInputProps('isPublic', { type: 'checkbox' })}
          />
          <DialogActions onCancel={onDone} type="submit" loading={save.isPending} mt="sm">
            Save
          </DialogActions>
        </Stack>
      </form>
      <Stack gap="md">
        <SearchPreview title={shown.title} description={shown.description} path={seoPages[page]} />
        <SharePreview
          title={shown.ogTitle}
          description={shown.ogDescription}
          image={shown.ogImage}
          path={seoPages[page]}
        />
      </Stack>
    </SimpleGrid>
  );
}

/** "52 characters; 50-60 suggested", and whether it is shorter or longer than that: guidance, never a refusal. */
function lengthGuidance(text: string, { min, max }: { min: number; max: number }): string {
  const length = text.trim().length;
  const advice = length < min ? ' (shorter than suggested)' : length > max ? ' (longer than suggested)' : '';
  return `${length} ${length === 1 ? 'character' : 'characters'}; ${min}-${max} suggested${advice}`;
}
