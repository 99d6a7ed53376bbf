import { Box } from '@mantine/core';
import { DemoSection } from '../demo/DemoSection';
import { Features, HowItWorks } from './Features';
import { Hero } from './Hero';
import { LandingFooter } from './LandingFooter';
import { Comparison, Pricing, StartTrial } from './Pricing';

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
      <Comparison />
      <Box bg="var(--mantine-color-gray-0)">
        <Pricing />
      </Box>
      <StartTrial />
      <LandingFooter />
    </>
  );
}
