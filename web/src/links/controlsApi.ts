import { linkEndpoints } from '@sniplink/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../api/client';
import { linkTagsQueryKey, useLinkMutation } from './api';

// Apart from api.ts, whose list query the home's loader (in the landing page's bundle) reads: only the
// dashboard's own chunk carries these.
const { linkTags, updateLink } = linkEndpoints;

/** Each tag on the user's links with how many carry it: the list's filter and the forms' suggestions. */
export const linkTagsQueryOptions = () =>
  queryOptions({
    queryKey: linkTagsQueryKey,
    queryFn: ({ signal }) => call(linkTags, {}, { signal }),
  });

/** Pauses or resumes a link from its card. */
export const useSetLinkPaused = () =>
  useLinkMutation(({ id, paused }: { id: string; paused: boolean }) =>
    call(updateLink, { params: { id }, body: { paused } }),
  );
