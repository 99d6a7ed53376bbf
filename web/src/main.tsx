import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';

import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, createAppRouter } from './app';
import { createQueryClient } from './queryClient';
import { takeServerState } from './serverState';

const queryClient = createQueryClient();
const router = createAppRouter(queryClient);

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element');

const app = (
  <StrictMode>
    <App router={router} queryClient={queryClient} />
  </StrictMode>
);

if (takeServerState(queryClient)) {
  // The server rendered this page (entry-server.tsx). The router renders as it does after a server
  // render (no waiting boundary above the routes, as on the server), and loads the page first: its
  // loaders answer from the server's data, and the page's code chunks arrive before React compares
  // the markup, which it then takes over as it is.
  router.ssr = { manifest: undefined };
  void router.load().then(() => hydrateRoot(rootElement, app));
} else {
  createRoot(rootElement).render(app);
}
