export type DemoInputProblem = { title: string; message: string };

/** The landing page's toast for a failed shorten, matched on the error text "{status}: {body}". */
export function demoShortenFailure(error: unknown): DemoInputProblem {
  const text = error instanceof Error ? error.message : '';
  if (text.includes('429')) {
    return {
      title: 'Demo Limit Reached',
      message: "You've reached the demo limit. Sign up free to create more trackable links!",
    };
  }
  if (text.includes('INVALID_URL')) {
    return { title: 'URL Not Allowed', message: 'This URL cannot be shortened. Please try a different URL.' };
  }
  if (text.includes('RATE_LIMITED')) {
    return {
      title: 'Demo Limit Reached',
      message: 'Please sign up for a free account to create more links.',
    };
  }
  return { title: 'Error', message: 'Failed to shorten URL. Please try again.' };
}
