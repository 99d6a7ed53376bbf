import { Alert, Anchor, Button, Card, Group, Stack, Stepper, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { DemoLink } from '@sniplink/contracts';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { CopyUrlButton } from '../components/CopyButton';
import { toast } from '../components/toast';
import { useShortenDemoLink } from '../demo/api';
import { LongUrlInput } from '../links/LongUrlInput';
import { useLinkLimitTexts } from '../links/limitsApi';
import { onboardingDemoProblem } from '../links/linkErrors';
import { typedUrlProblem, urlToSend } from '../links/typedUrl';

/** Welcome, make a first link, see it. */
export function OnboardingSteps() {
  const [step, setStep] = useState(0);
  // Asked from the first step, so that the last names Pro's allowance in force at once.
  useLinkLimitTexts();
  const [result, setResult] = useState<DemoLink>();

  return (
    <Stepper active={step} onStepClick={(next) => next < step && setStep(next)} size="sm">
      <Stepper.Step label="Welcome">
        <WelcomeStep onNext={() => setStep(1)} />
      </Stepper.Step>
      <Stepper.Step label="Create a link">
        <CreateFirstLinkStep
          onCreated={(link) => {
            setResult(link);
            setStep(2);
          }}
        />
      </Stepper.Step>
      <Stepper.Step label="Share it">{result && <FirstLinkResult link={result} />}</Stepper.Step>
    </Stepper>
  );
}

function WelcomeStep({ onNext }: { onNext: () => void }) {
  return (
    <Card withBorder radius="md" padding="lg" mt="md">
      <Title order={1} fz={26}>
        Welcome to Sniplink!
      </Title>
      <Text mt="sm">
        Turn long URLs into short links you can share anywhere, and see who clicks them: devices, referrers
        and countries, in real time.
      </Text>
      <Group mt="lg" justify="space-between">
        <Anchor component={Link} to="/home">
          Skip to dashboard
        </Anchor>
        <Button onClick={onNext}>Get started</Button>
      </Group>
    </Card>
  );
}

function CreateFirstLinkStep({ onCreated }: { onCreated: (link: DemoLink) => void }) {
  const form = useForm({ initialValues: { url: '' }, validate: { url: typedUrlProblem } });
  const [limitReached, setLimitReached] = useState<string>();
  const shorten = useShortenDemoLink();

  const submit = form.onSubmit(({ url }) => {
    setLimitReached(undefined);
    shorten.mutate(urlToSend(url), {
      onSuccess: onCreated,
      onError: (error) => {
        const problem = onboardingDemoProblem(error);
        if (problem.limitReached) setLimitReached(problem.message);
        else if (problem.title === 'URL Not Allowed') form.setFieldError('url', problem.message);
        else toast.error(problem.title, problem.message);
      },
    });
  });

  return (
    <Card withBorder radius="md" padding="lg" mt="md">
      <Title order={2} fz="xl">
        Paste a long URL
      </Title>
      <form aria-label="Create your first short link" noValidate onSubmit={submit}>
        <Stack gap="md" mt="sm">
          <LongUrlInput
            value={form.values.url}
            error={form.errors.url}
            onChange={(url) => form.setFieldValue('url', url)}
            data-autofocus
          />
          {limitReached && <LimitReachedAlert message={limitReached} />}
          <Group justify="flex-end">
            <Button type="submit" loading={shorten.isPending}>
              Create short link
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/** At the plan's limit: the server's reason, and the two ways on (make room, or upgrade). */
function LimitReachedAlert({ message }: { message: string }) {
  return (
    <Alert color="orange" variant="light" role="alert" title="Link limit reached">
      <Text size="sm">{message}</Text>
      <Group gap="sm" mt="sm">
        <Button component={Link} to="/home" size="xs" variant="default">
          Manage your links
        </Button>
        <Button component={Link} to="/subscribe" size="xs" color="violet">
          Upgrade to Pro
        </Button>
      </Group>
    </Alert>
  );
}

function FirstLinkResult({ link }: { link: DemoLink }) {
  const limits = useLinkLimitTexts();
  return (
    <Stack gap="md" mt="md">
      <Card withBorder radius="md" padding="lg">
        <Title order={2} fz="xl">
          Your short link is ready
        </Title>
        <Group gap="sm" mt="sm" wrap="nowrap">
          <Anchor
            href={link.shortUrl}
            target="_blank"
            rel="noopener noreferrer"
            fw={600}
            style={{ wordBreak: 'break-all' }}
          >
            {link.shortUrl}
          </Anchor>
          <CopyUrlButton url={link.shortUrl} copiedMessage="Short URL copied to clipboard" />
        </Group>
        <Text size="sm" c="dimmed" mt="xs" truncate title={link.originalUrl}>
          {link.originalUrl}
        </Text>
      </Card>
      <Card withBorder radius="md" padding="lg">
        <Text fw={600}>Need more than {limits.free}?</Text>
        <Text size="sm" c="dimmed" mt={4}>
          Pro gives you {limits.pro} with the same click analytics.
        </Text>
        <Group mt="md" justify="space-between">
          <Button component={Link} to="/subscribe" color="violet">
            Upgrade to Pro - Just $2/month
          </Button>
          <Button component={Link} to="/home" variant="default">
            Go to Dashboard
          </Button>
        </Group>
      </Card>
    </Stack>
  );
}
