import { moderationAdminEndpoints, moderationEndpoints } from '@sniplink/contracts/moderation/endpoints';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sessionOf } from '../accounts/current-session';
import { ADMIN } from '../admin/routes';
import { featureRoutes } from '../http/route-schema';
import type { ModerationService } from './moderation-service';

const NEXT_CLAIM =
  'Applies to the next claim of a code on every process, without a restart; codes claimed before are unchanged.';
const MATCHING =
  'Codes are compared ignoring case, look-alike characters (0 o, 1 i or l, 3 e, 4 a, 5 s, 7 t, @ a, $ s), hyphens and underscores; an entry of 4 letters or more is found anywhere inside a code, a shorter one only as the whole code or a whole part of it between hyphens, underscores or digits.';

/** The console's Moderate tab: the two lists and the approvals queue. Relative to `/api/admin`, behind its gate. */
export async function moderationAdminRoutes(
  admin: FastifyInstance,
  { moderation }: { moderation: ModerationService },
): Promise<void> {
  const api = admin.withTypeProvider<ZodTypeProvider>();
  const route = featureRoutes(moderationAdminEndpoints, ADMIN);

  api.route({
    ...route('prohibitedWords', {
      summary: 'Every prohibited word, newest first',
      answers: { 200: 'The prohibited words' },
    }),
    handler: () => moderation.listWords(),
  });
  api.route({
    ...route('addProhibitedWord', {
      summary: 'Add a prohibited word',
      description: `A code containing an active prohibited word is refused (400 \`PROHIBITED_CODE\`). ${MATCHING} The word is required; \`category\` defaults to offensive, \`severity\` to medium. The same word again (compared as codes are) is a 409. ${NEXT_CLAIM}`,
      answers: { 201: 'The word as listed (active)' },
      errors: { 409: ['CONFLICT'] },
    }),
    handler: async (request, reply) => {
      reply.code(201);
      return moderation.addWord(request.body);
    },
  });
  api.route({
    ...route('switchProhibitedWord', {
      summary: 'Switch a prohibited word off, or on again',
      description: `An inactive word is ignored. ${NEXT_CLAIM}`,
      answers: { 200: 'The word as it stands now' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: (request) => moderation.setWordActive(request.params.id, request.body.isActive),
  });
  api.route({
    ...route('deleteProhibitedWord', {
      summary: 'Delete a prohibited word',
      description: NEXT_CLAIM,
      answers: { 200: 'Deleted' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: async (request) => {
      await moderation.deleteWord(request.params.id);
      return { id: request.params.id, deleted: true as const };
    },
  });

  api.route({
    ...route('protectedBrands', {
      summary: 'Every protected brand, newest first',
      answers: { 200: 'The protected brands' },
    }),
    handler: () => moderation.listBrands(),
  });
  api.route({
    ...route('addProtectedBrand', {
      summary: 'Add a protected brand',
      description: `A custom code containing an active brand with \`requiresApproval\` is taken but redirects only once an admin approves it (an approval is opened); without it the code is refused (400 \`PROTECTED_BRAND\`), as a generated code or a premium slug containing any active brand is. ${MATCHING} The name is required; \`category\` defaults to tech, \`requiresApproval\` to true. The same name again is a 409. ${NEXT_CLAIM}`,
      answers: { 201: 'The brand as listed (active)' },
      errors: { 409: ['CONFLICT'] },
    }),
    handler: async (request, reply) => {
      reply.code(201);
      return moderation.addBrand(request.body);
    },
  });
  api.route({
    ...route('switchProtectedBrand', {
      summary: 'Switch a protected brand off, or on again',
      description: `An inactive brand is ignored. ${NEXT_CLAIM}`,
      answers: { 200: 'The brand as it stands now' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: (request) => moderation.setBrandActive(request.params.id, request.body.isActive),
  });
  api.route({
    ...route('deleteProtectedBrand', {
      summary: 'Delete a protected brand',
      description: `Codes waiting for approval keep waiting. ${NEXT_CLAIM}`,
      answers: { 200: 'Deleted' },
      errors: { 404: ['NOT_FOUND'] },
    }),
    handler: async (request) => {
      await moderation.deleteBrand(request.params.id);
      return { id: request.params.id, deleted: true as const };
    },
  });

  api.route({
    ...route('slugApprovals', {
      summary: 'Codes waiting for approval, or decided',
      description:
        '`status` filters (pending when absent): pending ones oldest first, decided ones latest decision first; at most 1,000.',
      answers: { 200: 'The approvals' },
    }),
    handler: (request) => moderation.approvals(request.query.status),
  });
  api.route({
    ...route('approveSlug', {
      summary: 'Approve a code: it redirects from now on',
      description:
        'Every redirect process follows within about a second. Only a pending approval: one decided, or whose link moved off the code, is a 409.',
      answers: { 200: 'The approval, approved' },
      errors: { 404: ['NOT_FOUND'], 409: ['CONFLICT'] },
    }),
    handler: (request) => moderation.approve(request.params.id, request.body.notes ?? null),
  });
  api.route({
    ...route('rejectSlug', {
      summary: 'Reject a code: the link gets a generated code, and its owner is told why',
      description:
        "The refused code is free again for anyone; the owner sees a notice on the dashboard and gets a mail with the reason (default 'Brand protection violation') and the new code. Only a pending approval: otherwise 409.",
      answers: { 200: 'The approval, rejected' },
      errors: { 404: ['NOT_FOUND'], 409: ['CONFLICT'] },
    }),
    handler: (request) => moderation.reject(request.params.id, request.body.reason),
  });
}

/** The signed-in user's side: the notices about their codes an admin rejected. */
export async function moderationRoutes(
  app: FastifyInstance,
  { moderation }: { moderation: ModerationService },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const route = featureRoutes(moderationEndpoints, { tag: 'Links', session: 'required' });
  api.route({
    ...route('codeRejectionNotices', {
      summary: 'Short codes of yours an admin did not approve, in the last 30 days',
      description: 'Each with the reason and the generated code the link has instead; latest first.',
      answers: { 200: 'The notices' },
    }),
    handler: (request) => moderation.noticesFor(sessionOf(request).userId),
  });
}
