interface GetJsonOptions {
  signal?: AbortSignal;
  /** Non-OK statuses whose body is still the answer (e.g. 503 from /readyz). */
  acceptStatuses?: readonly number[];
}

/**
 * GET a JSON body as the spec, sections 7 and 8, describes: cookies are sent, and any other non-OK
 * response becomes an error whose message is "{status}: {body text, or the status text if empty}".
 */
export async function getJson<T>(
  url: string,
  { signal, acceptStatuses = [] }: GetJsonOptions = {},
): Promise<T> {
  const response = await fetch(url, { credentials: 'include', signal });
  if (!response.ok && !acceptStatuses.includes(response.status)) {
    const body = await response.text();
    throw new Error(`${response.status}: ${body || response.statusText}`);
  }
  return (await response.json()) as T;
}
