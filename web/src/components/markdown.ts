import markdownIt, { type MarkdownIt } from 'markdown-it';

/**
 * Turns markdown written by an operator (page copy, documentation) into HTML that is safe to put in a page,
 * the same in the browser and in Node (pages rendered on the server use it too).
 *
 * Safety rests on two settings of markdown-it rather than on cleaning HTML afterwards:
 * - `html: false`: raw HTML in the source is escaped as text, so no tag, attribute (style, on*) or script
 *   written by hand ever reaches the page; every tag in the output comes from markdown syntax.
 * - `validateLink`: every URL a link, image, autolink or linkified address would carry is checked after
 *   markdown-it has decoded entities and normalised it; only http:, https:, mailto: and relative addresses
 *   pass. A refused link is left as plain text.
 */

/** The URL schemes a link may carry; anything else with a scheme (javascript:, vbscript:, data:, file:) is refused. */
const ALLOWED_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/**
 * Whether a link may be followed: http, https, mailto, or an address relative to this site. Browsers
 * ignore tabs, newlines and other control characters inside a URL, so they are removed before the scheme
 * is read; a colon before the first `/`, `?` or `#` is what makes the rest a scheme.
 */
export function isAllowedLink(url: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is stripped.
  const compact = url.replace(/[\u0000-\u0020\u007f]/g, '').toLowerCase();
  const scheme = /^([^/?#]*?:)/.exec(compact)?.[1];
  return scheme === undefined || ALLOWED_SCHEMES.has(scheme);
}

/** Whether a link leaves this site (an absolute or protocol-relative address). */
function isExternal(href: string): boolean {
  return /^(https?:)?\/\//i.test(href.trim());
}

function createRenderer(): MarkdownIt {
  const md = markdownIt({ html: false, linkify: true, typographer: false });
  md.validateLink = isAllowedLink;
  md.renderer.rules.link_open = (tokens, index, options, _env, self) => {
    const token = tokens[index];
    if (token && isExternal(String(token.attrGet('href') ?? ''))) {
      // A page opened from here gets no handle on this one and learns nothing of where the reader came from.
      token.attrSet('target', '_blank');
      token.attrSet('rel', 'noopener noreferrer nofollow');
    }
    return self.renderToken(tokens, index, options);
  };
  return md;
}

let renderer: MarkdownIt | undefined;

/** The HTML of a markdown text: see the module's comment for what is refused. */
export function renderMarkdown(source: string): string {
  renderer ??= createRenderer();
  return renderer.render(source);
}
