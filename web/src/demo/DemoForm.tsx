import { Button, Center, Group, Loader, TextInput } from '@mantine/core';
import type { DemoLink } from '@sniplink/contracts';
import { type FormEvent, lazy, Suspense, useState } from 'react';
import { toast } from '../components/toast';
import { useShortenDemoUrl } from './api';
import { demoInputProblem, demoShortenFailure } from './demoErrors';

// The result (with its copy buttons and their tooltips) is its own chunk: most visitors never shorten a
// link. Its download starts with the first Shorten, alongside the call to the server.
const loadDemoResult = () => import('./DemoResult');
const DemoResult = lazy(() => loadDemoResult().then((module) => ({ default: module.DemoResult })));

/** The demo's form and, once a link is shortened, its result. */
export function DemoForm() {
  const [url, setUrl] = useState('');
  const [result, setResult] = useState<DemoLink>();
  const shorten = useShortenDemoUrl();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = demoInputProblem(url);
    if (problem) return toast.error(problem.title, problem.message);
    void loadDemoResult();
    shorten.mutate(url.trim(), {
      onSuccess: setResult,
      onError: (error) => {
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
        <Group align="flex-end" gap="sm">
          <TextInput
            type="url"
            label="Long URL"
            placeholder="https://example.com/a/very/long/link"
            value={url}
            onChange={(event) => setUrl(event.currentTarget.value)}
            style={{ flex: '1 1 260px' }}
          />
          <Group gap="sm">
            <Button type="submit" disabled={shorten.isPending}>
              {shorten.isPending ? 'Shortening...' : 'Shorten'}
            </Button>
            {result && (
              <Button variant="default" onClick={clear}>
                Clear
              </Button>
            )}
          </Group>
        </Group>
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
