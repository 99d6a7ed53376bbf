import { notFound } from '@tanstack/react-router';
import { ApiError } from './http';

/**
 * A loader's load where the server's 404 means the address names nothing: the route shows its
 * not-found page, and any other failure its error page.
 */
export async function orNotFound<T>(load: Promise<T>): Promise<T> {
  try {
    return await load;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw notFound();
    throw error;
  }
}
