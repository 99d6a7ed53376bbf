import { isNotFound } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import { ApiError } from './http';
import { orNotFound } from './orNotFound';

describe('orNotFound', () => {
  it("turns the server's 404 into the route's not-found page", async () => {
    const failure = await orNotFound(Promise.reject(new ApiError(404, '', 'Not Found'))).catch((e) => e);
    expect(isNotFound(failure)).toBe(true);
  });

  it('leaves any other failure for the error page', async () => {
    const refused = new ApiError(500, '', 'Internal Server Error');
    await expect(orNotFound(Promise.reject(refused))).rejects.toBe(refused);
  });

  it('passes an answer through', async () => {
    await expect(orNotFound(Promise.resolve('slug'))).resolves.toBe('slug');
  });
});
