import { Button, Center, Flex, Group, Loader, TextInput } from '@mantine/core';
import type { DemoLink } from '@sniplink/contracts';
import { type FormEvent, lazy, Suspense, useState } from 'react';
import { toast } from '../components/toast';
import { useHydrated } from '../components/useHydrated';
import { fieldProblemOf } from '../links/linkErrors';
import { typedUrlProblem, urlToSend } from '../links/typedUrl';
import { useShortenDemoUrl } from './api';
import { formHeight } from './DemoSection';
import { demoShortenFailure } from './demoErrors';

// The result (with its copy buttons and their tooltips) is its own chunk: most visitors never shorten a
// link. Its download starts with the first Shorten, alongside the call to the server.
const loadDemoResult = () => import('./DemoResult');
const DemoResult = lazy(() => loadDemoResult().then((module) => ({ default: module.DemoResult })));

/** The demo's form and, once a link is shortened, its result. */
/**
 * The form once the app has taken the page over: it works only with the app's script, so a page the
 * server rendered keeps its place until then, and no one types into a form that cannot send yet.
 */
export function DemoForm() {
  return useHydrated() ? <DemoFormFields /> : <div style={{ minHeight: formHeight }} />;
}

function DemoFormFields() {
  const [url, setUrl] = useState('');
  const [result, setResult] = useState<DemoLink>();
  const shorten = useShortenDemoUrl();

  // Said on the field: a URL that cannot be shortened, the browser's check or the server's.
  const [urlProblem, setUrlProblem] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = typedUrlProblem(url);
    setUrlProblem(problem ?? undefined);
    if (problem) return;
    void loadDemoResult();
    // Forgiving: "example.com/x" is sent as "https://example.com/x".
    shorten.mutate(urlToSend(url), {
      onSuccess: setResult,
      onError: (error) => {
        const onField = fieldProblemOf(error, ['originalUrl', 'url']);
        if (onField) return setUrlProblem(onField.message);
        const failure = demoShortenFailure(error);
        toast.error(failure.title, failure.message);
      },
    });
  };
  const clear = () => {
    setUrl('');
    setResult(undefined);
    shorten.reset();
  };

  return (
    <>
      <form onSubmit={submit} noValidate>
        {/* One row from 576 px, the buttons level with the input below its label; stacked on phones. */}
        <Flex
          direction={{ base: 'column', xs: 'row' }}
          align={{ base: 'stretch', xs: 'flex-start' }}
          gap="sm"
        >
          <TextInput
            type="url"
            inputMode="url"
            label="Long URL"
            placeholder="https://example.com/a/very/long/link"
            value={url}
            onChange={(event) => {
              setUrl(event.currentTarget.value);
              setUrlProblem(undefined);
            }}
            error={urlProblem}
            style={{ flex: 1 }}
          />
          <Group gap="sm" mt={{ base: 0, xs: 25 }}>
            <Button type="submit" disabled={shorten.isPending}>
              {shorten.isPending ? 'Shortening...' : 'Shorten'}
            </Button>
            {result && (
              <Button variant="default" onClick={clear}>
                Clear
              </Button>
            )}
          </Group>
        </Flex>
      </form>
      {result && (
        <Suspense
          fallback={
            <Center mt="lg">
              <Loader size="sm" aria-label="Loading your short link" />
            </Center>
          }
        >
          <DemoResult link={result} />
        </Suspense>
      )}
    </>
  );
}
