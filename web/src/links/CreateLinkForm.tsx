import { Button, Card, Flex, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { LinkAllowance } from '@sniplink/contracts';
import { linkLimitReachedMessage } from '@sniplink/contracts/links/limits';
import { announceSignedOutAndLogIn } from '../accounts/useSignedInUser';
import { toast } from '../components/toast';
import { useDashboardPlace } from '../dashboard/useDashboardPlace';
import { useCreateLink } from './api';
import { LongUrlInput } from './LongUrlInput';
import { createLinkProblem, fieldProblemOf, moderationProblem, PENDING_APPROVAL_NOTE } from './linkErrors';
import { ShortCodeField } from './ShortCodeField';
import { typedUrlProblem, urlToSend } from './typedUrl';
import { useShortCodeCheck, useShortCodeRule } from './useShortCodeCheck';

const MAX_TITLE_LENGTH = 200;
const fields = ['originalUrl', 'title', 'shortCode'] as const;

interface CreateLinkFormProps {
  /** The user's allowance, from the server: with none remaining the form is disabled and says why. */
  allowance: LinkAllowance;
}

/**
 * Shortens a URL, with an optional title and custom back-half (its availability checked as typed, as in
 * the edit dialog). A problem with a field is said on that field; a toast only for what has none.
 */
export function CreateLinkForm({ allowance }: CreateLinkFormProps) {
  const { go } = useDashboardPlace();
  const createLink = useCreateLink();
  const noneLeft = allowance.remaining === 0;
  const codeRule = useShortCodeRule();
  const form = useForm({
    initialValues: { originalUrl: '', title: '', shortCode: '' },
    validate: {
      originalUrl: typedUrlProblem,
      title: (title) =>
        title.trim().length > MAX_TITLE_LENGTH ? `At most ${MAX_TITLE_LENGTH} characters` : null,
      shortCode: (code) => (code.trim() === '' || codeRule.fits(code.trim()) ? null : codeRule.text),
    },
  });
  const code = form.values.shortCode.trim();
  const check = useShortCodeCheck(code, '');

  const submit = form.onSubmit((values) => {
    // Taken or reserved: the field says so already.
    if (check.state === 'invalid') return;
    const title = values.title.trim();
    createLink.mutate(
      {
        originalUrl: urlToSend(values.originalUrl),
        title: title || null,
        ...(code ? { shortCode: code } : {}),
      },
      {
        onSuccess: (link) => {
          form.reset();
          toast.success(
            'Link created successfully!',
            link.pendingApproval ? `${link.shortUrl}. ${PENDING_APPROVAL_NOTE}` : link.shortUrl,
          );
          // The new link is the first of the list as it is ordered by default: show that.
          go({ page: undefined, q: undefined, sort: undefined }, { replace: true });
        },
        onError: (error) => {
          const onField = fieldProblemOf(error, fields);
          const refused = moderationProblem(error);
          if (refused) toast.error(refused.title, refused.message);
          if (onField) {
            form.setFieldError(onField.field, onField.message);
            return;
          }
          const problem = createLinkProblem(error);
          if (problem.signedOut) announceSignedOutAndLogIn();
          else toast.error(problem.title, problem.message);
        },
      },
    );
  });

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
