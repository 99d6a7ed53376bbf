/**
 * A URL as a person types it, made whole, without zod (the dashboard's form and the server share it):
 * trimmed, and given `https://` when it has no scheme, so that `example.com/x` is
 * `https://example.com/x`. A host with a port (`example.com:8080/x`) has no scheme either; a URL with
 * one (`ftp:`, `mailto:`) is left as it is, for the target's rules to refuse.
 */
export function withDefaultScheme(typed: string): string {
  const url = typed.trim();
  if (url === '') return url;
  if (url.startsWith('//')) return `https:${url}`;
  const scheme = /^[a-z][a-z0-9+.-]*:(.*)$/is.exec(url);
  const afterColon = scheme?.[1];
  if (afterColon !== undefined && !/^\d+(?:[/?#]|$)/.test(afterColon)) return url;
  return `https://${url}`;
}
