import { Button, Card, Flex, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import type { LinkAllowance } from '@sniplink/contracts';
import { linkLimitReachedMessage } from '@sniplink/contracts/links/limits';
import { announceSignedOutAndLogIn } from '../accounts/useSignedInUser';
import { toast } from '../components/toast';
import { useDashboardPlace } from '../dashboard/useDashboardPlace';
import { useCreateLink } from './api';
import { LinkOptions } from './LinkOptionsFields';
import { LongUrlInput } from './LongUrlInput';
import { createLinkProblem, moderationProblem, PENDING_APPROVAL_NOTE } from './linkErrors';
import {
  controlValidation,
  createControls,
  emptyLinkForm,
  type LinkFormValues,
  linkFieldProblem,
  targetOf,
} from './linkForm';
import { ShortCodeField } from './ShortCodeField';
import { typedUrlProblem, urlToSend } from './typedUrl';
import { useShortCodeCheck, useShortCodeRule } from './useShortCodeCheck';

const MAX_TITLE_LENGTH = 200;
/** The fields in the form's first rows; a refusal of any other opens "More options" to show it. */
const firstRowFields = new Set(['originalUrl', 'title', 'shortCode']);

interface CreateLinkFormProps {
  /** The user's allowance, from the server: with none remaining the form is disabled and says why. */
  allowance: LinkAllowance;
}

/**
 * Shortens a URL, with an optional title and custom back-half (its availability checked as typed, as in
 * the edit dialog), and under "More options" campaign parameters and the link's controls. A problem with a
 * field is said on that field; a toast only for what has none.
 */
export function CreateLinkForm({ allowance }: CreateLinkFormProps) {
  const { go } = useDashboardPlace();
  const createLink = useCreateLink();
  const noneLeft = allowance.remaining === 0;
  const codeRule = useShortCodeRule();
  const [moreOptions, toggleMoreOptions] = useDisclosure(false);
  const form = useForm<LinkFormValues>({
    initialValues: emptyLinkForm,
    validate: {
      originalUrl: typedUrlProblem,
      title: (title) =>
        title.trim().length > MAX_TITLE_LENGTH ? `At most ${MAX_TITLE_LENGTH} characters` : null,
      shortCode: (code) => (code.trim() === '' || codeRule.fits(code.trim()) ? null : codeRule.text),
      ...controlValidation,
    },
  });
  const code = form.values.shortCode.trim();
  const check = useShortCodeCheck(code, '');

  const submit = form.onSubmit(
    (values) => {
      // Taken or reserved: the field says so already.
      if (check.state === 'invalid') return;
      const title = values.title.trim();
      createLink.mutate(
        {
          originalUrl: targetOf(values),
          title: title || null,
          ...(code ? { shortCode: code } : {}),
          ...createControls(values),
        },
        {
          onSuccess: (link) => {
            form.reset();
            // The next link starts as simply as the first: one field and a button.
            toggleMoreOptions.close();
            toast.success(
              'Link created successfully!',
              link.pendingApproval ? `${link.shortUrl}. ${PENDING_APPROVAL_NOTE}` : link.shortUrl,
            );
            // The new link is the first of the list as it is ordered by default: show that.
            go({ page: undefined, q: undefined, sort: undefined, tag: undefined }, { replace: true });
          },
          onError: (error) => {
            const onField = linkFieldProblem(error);
            const refused = moderationProblem(error);
            if (refused) toast.error(refused.title, refused.message);
            if (onField) {
              form.setFieldError(onField.field, onField.message);
              if (!firstRowFields.has(onField.field) && !moreOptions) toggleMoreOptions.open();
              return;
            }
            const problem = createLinkProblem(error, { linksRemain: !noneLeft });
            if (problem.signedOut) announceSignedOutAndLogIn();
            else toast.error(problem.title, problem.message);
          },
        },
      );
    },
    // A problem in a folded field: unfold it, so the person sees what stops the form.
    (errors) => {
      if (Object.keys(errors).some((field) => !firstRowFields.has(field))) toggleMoreOptions.open();
    },
  );

  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={2} fz="lg" mb="sm">
        Create New Short Link
      </Title>
      <form aria-label="Create New Short Link" noValidate onSubmit={submit}>
        <Stack gap="sm">
          {/* One row from 576 px, the button level with the input below its label; stacked on phones. */}
          <Flex
            direction={{ base: 'column', xs: 'row' }}
            align={{ base: 'stretch', xs: 'flex-start' }}
            gap="sm"
          >
            <LongUrlInput
              style={{ flex: 1 }}
              value={form.values.originalUrl}
              error={form.errors.originalUrl}
              onChange={(url) => form.setFieldValue('originalUrl', url)}
              onBlur={() => {
                // Said back as it will be sent: "example.com/x" reads "https://example.com/x".
                const typed = form.values.originalUrl;
                if (typed.trim() && !typedUrlProblem(typed))
                  form.setFieldValue('originalUrl', urlToSend(typed));
              }}
            />
            <Button
              type="submit"
              loading={createLink.isPending}
              disabled={noneLeft}
              mt={{ base: 0, xs: 25 }}
              style={{ alignSelf: 'flex-start' }}
            >
              Shorten
            </Button>
          </Flex>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label="Title (optional)"
              description="Shown above the link in your list"
              placeholder="Spring sale"
              {...form.getInputProps('title')}
            />
            <ShortCodeField
              label="Custom back-half (optional)"
              placeholder="spring-sale"
              value={form.values.shortCode}
              onChange={(event) => form.setFieldValue('shortCode', event.currentTarget.value)}
              check={check}
              error={form.errors.shortCode}
            />
          </SimpleGrid>
          <LinkOptions
            form={form}
            idPrefix="create-link"
            opened={moreOptions}
            onToggle={toggleMoreOptions.toggle}
          />
          {noneLeft && (
            <Text size="sm" c="dimmed">
              {linkLimitReachedMessage(allowance.period, allowance.limit)}
            </Text>
          )}
        </Stack>
      </form>
    </Card>
  );
}
