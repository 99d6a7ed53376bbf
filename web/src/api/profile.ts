import { userSchema } from '@sniplink/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { currentUserQueryKey } from './auth';
import { sendJson } from './http';

export interface ProfileChanges {
  firstName: string;
  lastName: string;
}

/** PATCH /api/user/profile; the user is asked for again afterwards (spec, section 7). */
export const useUpdateProfile = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: ProfileChanges) => sendJson('PATCH', '/api/user/profile', userSchema, changes),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: currentUserQueryKey }),
  });
};
