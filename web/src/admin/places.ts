import { getRouteApi } from '@tanstack/react-router';
import { z } from 'zod';
import { idParam, pageParam, textParam } from '../places';

/**
 * The console's places, in its address: the tab (`tab`, Overview without it) and, on the Users tab, the
 * search (`q`), its page (`page`) and the user whose View dialog is open (`user`). A reload or a shared
 * address opens the same place.
 */
export const adminSearchSchema = z.object({
  tab: z.string().optional().catch(undefined),
  q: textParam,
  page: pageParam,
  user: idParam,
});

export const adminRoute = getRouteApi('/_authenticated/admin');
