import { Box } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { DemoSection } from '../demo/DemoSection';
import { Features, HowItWorks } from './Features';
import { Hero } from './Hero';
import { LandingFooter } from './LandingFooter';

// The comparison, pricing and closing sections are a chunk of their own, after the first screen: the
// server's page already shows them, and React takes them over once their code is in.
const PricingSections = lazy(() =>
  import('./Pricing').then((module) => ({ default: module.PricingSections })),
);

/** The signed-out "/": pitch, demo, pricing. */
export function LandingPage({ headline }: { headline: string }) {
  return (
    <>
      <Hero headline={headline} />
      <Box bg="var(--mantine-color-gray-0)">
        <Features />
      </Box>
      <HowItWorks />
      <Box bg="var(--mantine-color-gray-0)">
        <DemoSection />
      </Box>
      <Suspense fallback={null}>
        <PricingSections />
      </Suspense>
      <LandingFooter />
    </>
  );
}
