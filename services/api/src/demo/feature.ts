import { accountsFeature } from '../accounts/feature';
import { defineFeature } from '../feature';
import { claimDemoLinksOnSignIn, demoRoutes } from './routes';

/**
 * The landing page's demo shortener. Its service starts with the runtime; a visitor who signs in keeps
 * their demo links (accounts runs the claim after each sign-in).
 */
export const demoFeature = defineFeature({
  name: 'demo',
  build: ({ demo }, built) => {
    built.of(accountsFeature).afterSignIn.push(claimDemoLinksOnSignIn(demo));
  },
  routes: (_services, { demo, sessions, cookie }) => [(api) => demoRoutes(api, { demo, sessions, cookie })],
});
