import { IMPORT_FILE_LIMIT_BYTES, importEndpoints } from '@sniplink/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sessionOf } from '../accounts/current-session';
import { featureRoutes } from '../http/route-schema';
import { FileTooLargeError } from './import-file';
import type { ImportJobs } from './import-job';
import type { ImportService } from './import-service';

const route = featureRoutes(importEndpoints, { tag: 'Imports', session: 'required' });

/** The media types an export is uploaded as; the body reaches the route as a stream, never parsed whole. */
const FILE_TYPES = ['application/octet-stream', 'text/csv', 'application/json', 'application/sql'];

/** Importing links from another shortener's export, from the dashboard. */
export async function importRoutes(
  app: FastifyInstance,
  { imports, jobs }: { imports: ImportService; jobs: ImportJobs },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.route({
    ...route('importFormats', {
      summary: 'The exports an import reads',
      answers: { 200: 'Each format’s id and label' },
    }),
    handler: async () => imports.formats(),
  });

  api.route({
    ...route('listImports', {
      summary: "The signed-in user's imports, newest first",
      answers: { 200: 'The last 20 imports' },
    }),
    handler: async (request, reply) =>
      reply.header('cache-control', 'no-store').send(await imports.list(sessionOf(request).userId)),
  });

  // The upload sits in a scope of its own: only it takes a file as its body (JSON included, for the
  // formats that are JSON), streamed into storage as it arrives.
  await api.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(FILE_TYPES, (_request, payload, done) => done(null, payload));
    scope.withTypeProvider<ZodTypeProvider>().route({
      ...route('uploadImport', {
        summary: 'Upload an export and read its preview',
        description: `The export file is the body (\`application/octet-stream\`, \`text/csv\` or \`application/json\`), at most ${IMPORT_FILE_LIMIT_BYTES / 1024 / 1024} MB (413 past it). The answer is the import, ready to start: how many links it holds, how many codes are taken here, the invalid rows with their reason, and how many more links the plan allows. Nothing is imported until POST /api/imports/{id}/start.`,
        rateLimit: { requests: 10, minutes: 1 },
        answers: { 201: 'The import and its preview' },
        errors: { 400: ['VALIDATION_FAILED'], 413: ['PAYLOAD_TOO_LARGE'] },
      }),
      bodyLimit: IMPORT_FILE_LIMIT_BYTES,
      config: { streamsBody: true },
      handler: async (request, reply) => {
        const session = sessionOf(request);
        if (Number(request.headers['content-length']) > IMPORT_FILE_LIMIT_BYTES)
          throw new FileTooLargeError();
        const body = request.body as AsyncIterable<Uint8Array> | undefined;
        try {
          const uploaded = await imports.upload(
            { ownerId: session.userId, actor: session.userId, outsidePlan: false },
            request.query.format,
            request.query.fileName ?? null,
            body ?? emptyBody(),
          );
          return reply.code(201).send(uploaded);
        } catch (error) {
          // Refused before the body's end: the rest is read and dropped, so the client hears the answer.
          request.raw.resume();
          throw error;
        }
      },
    });
  });

  api.route({
    ...route('getImport', {
      summary: 'An import: its preview, how far it is, and its report',
      answers: { 200: 'The import' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: async (request, reply) =>
      reply
        .header('cache-control', 'no-store')
        .send(await imports.get(sessionOf(request).userId, request.params.id)),
  });

  api.route({
    ...route('startImport', {
      summary: 'Start an import',
      description:
        'With `conflicts`: `skip` leaves out a link whose code is taken here, `new-code` imports it under a generated code; `limit` imports only the first N links (the plan’s allowance). The import runs on the server (it goes on if the page closes, and resumes after a restart); GET /api/imports/{id} follows it.',
      answers: { 200: 'The import, running' },
      errors: { 404: ['NOT_FOUND'], 409: ['CONFLICT'] },
    }),
    handler: async (request) => {
      const started = await imports.start(sessionOf(request).userId, request.params.id, request.body);
      jobs.wake();
      return started;
    },
  });
}

async function* emptyBody(): AsyncIterable<Uint8Array> {}
