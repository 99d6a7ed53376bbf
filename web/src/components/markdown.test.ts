import { describe, expect, it } from 'vitest';
import { isAllowedLink, renderMarkdown } from './markdown';

/** Every href and src the HTML carries. */
const urlsIn = (html: string) => [...html.matchAll(/\b(?:href|src)="([^"]*)"/g)].map(([, url]) => url ?? '');

/** Tag names in the HTML: only markdown's own may appear. */
const tagsIn = (html: string) => [...html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9]*)/g)].map(([, tag]) => tag);

/**
 * Every attribute name in the HTML's tags, values skipped: a quoted value may hold `onerror=` as text,
 * which is harmless, so the tag is read attribute by attribute as a browser would.
 */
function attributesIn(html: string) {
  const tags = [...html.matchAll(/<[a-zA-Z][a-zA-Z0-9]*((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*\/?>/g)];
  // Every opening tag reads this way, or the scan below would miss one.
  expect(tags).toHaveLength(html.match(/<[a-zA-Z]/g)?.length ?? 0);
  return tags.flatMap(([, attributes]) =>
    [...(attributes ?? '').matchAll(/\s+([^\s=>/]+)(?:="[^"]*")?/g)].map(([, name]) => name?.toLowerCase()),
  );
}

/** No on… handler, style or srcdoc: the attributes markdown itself writes. */
const SAFE_ATTRIBUTES = ['href', 'src', 'alt', 'title', 'target', 'rel', 'start'];

const MARKDOWN_TAGS = new Set([
  'p',
  'a',
  'img',
  'em',
  'strong',
  'code',
  'pre',
  'ul',
  'ol',
  'li',
  'h1',
  'h2',
  'h3',
  'blockquote',
  'br',
  'hr',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  's',
]);

const XSS_PAYLOADS: Record<string, string> = {
  'script tag': '<script>alert(1)</script>',
  'script tag inside a paragraph': 'Hello <script src="https://evil.example/x.js"></script> world',
  'img onerror': '<img src=x onerror=alert(1)>',
  'svg onload': '<svg onload=alert(1)></svg>',
  iframe: '<iframe src="javascript:alert(1)"></iframe>',
  'style attribute': '<p style="background:url(javascript:alert(1))">styled</p>',
  'style tag': '<style>body{display:none}</style>',
  'event handler on a link tag': '<a href="#" onclick="alert(1)">click</a>',
  'html block': '<div>\n<img src=x onerror=alert(1)>\n</div>',
  'inline link': '[click](javascript:alert(1))',
  'inline link with upper case': '[click](JaVaScRiPt:alert(1))',
  'inline link in angle brackets': '[click](<javascript:alert(1)>)',
  'inline link with a title': '[click](javascript:alert(1) "title")',
  'entity-encoded scheme': '[click](jav&#x61;script:alert(1))',
  'decimal entity scheme': '[click](&#106;avascript:alert(1))',
  'named entity colon': '[click](javascript&colon;alert(1))',
  'percent-encoded tab in scheme': '[click](java%09script:alert(1))',
  'tab in scheme': '[click](<java\tscript:alert(1)>)',
  'leading space': '[click](< javascript:alert(1)>)',
  'reference link': '[click][evil]\n\n[evil]: javascript:alert(1)',
  'reference link with entity': '[click][evil]\n\n[evil]: jav&#x61;script:alert(1)',
  'collapsed reference link': '[evil][]\n\n[evil]: javascript:alert(1)',
  'shortcut reference link': '[evil]\n\n[evil]: javascript:alert(1)',
  autolink: '<javascript:alert(1)>',
  'autolink with entity': '<jav&#x61;script:alert(1)>',
  'vbscript link': '[click](vbscript:msgbox(1))',
  'data URL link': '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  'data URL image': '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  'data URL png image': '![x](data:image/png;base64,iVBORw0KGgo=)',
  'javascript image': '![x](javascript:alert(1))',
  'file link': '[click](file:///etc/passwd)',
  'attribute break-out in a title': '[click](https://example.com "a\\" onmouseover=\\"alert(1)")',
  'attribute break-out in an href': '[click](https://example.com/"onmouseover="alert(1))',
  'attribute break-out in alt text': '![a" onerror="alert(1)](https://example.com/x.png)',
};

describe('renderMarkdown against XSS payloads', () => {
  for (const [name, payload] of Object.entries(XSS_PAYLOADS)) {
    it(`makes nothing runnable of: ${name}`, () => {
      const html = renderMarkdown(payload);
      for (const tag of tagsIn(html)) expect(MARKDOWN_TAGS).toContain(tag?.toLowerCase());
      for (const attribute of attributesIn(html)) expect(SAFE_ATTRIBUTES).toContain(attribute);
      for (const url of urlsIn(html)) expect(isAllowedLink(url), url).toBe(true);
      expect(html).not.toMatch(/(href|src)="\s*(javascript|vbscript|data):/i);
    });
  }

  it('escapes raw HTML as visible text', () => {
    expect(renderMarkdown('<script>alert(1)</script>')).toBe(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n',
    );
  });

  it('leaves a refused link as its text, without an anchor', () => {
    expect(renderMarkdown('[click](javascript:alert(1))')).toBe('<p>[click](javascript:alert(1))</p>\n');
    expect(renderMarkdown('<javascript:alert(1)>')).toBe('<p>&lt;javascript:alert(1)&gt;</p>\n');
  });
});

describe('renderMarkdown with ordinary copy', () => {
  it('renders headings, emphasis and lists', () => {
    expect(renderMarkdown('## Cookies\n\nWe set **one** cookie:\n\n- sid')).toBe(
      '<h2>Cookies</h2>\n<p>We set <strong>one</strong> cookie:</p>\n<ul>\n<li>sid</li>\n</ul>\n',
    );
  });

  it('opens external links in a new tab with no opener, referrer or endorsement', () => {
    expect(renderMarkdown('[docs](https://example.com/docs)')).toBe(
      '<p><a href="https://example.com/docs" target="_blank" rel="noopener noreferrer nofollow">docs</a></p>\n',
    );
    expect(renderMarkdown('<https://example.com>')).toContain('rel="noopener noreferrer nofollow"');
    expect(renderMarkdown('see https://example.com today')).toContain(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">',
    );
  });

  it('keeps links within the site and mail links as they are', () => {
    expect(renderMarkdown('[contact](/contact)')).toBe('<p><a href="/contact">contact</a></p>\n');
    expect(renderMarkdown('[terms](terms#refunds)')).toBe('<p><a href="terms#refunds">terms</a></p>\n');
    expect(renderMarkdown('[write](mailto:ops@example.com)')).toBe(
      '<p><a href="mailto:ops@example.com">write</a></p>\n',
    );
  });

  it('keeps images from http and https addresses', () => {
    expect(renderMarkdown('![logo](https://example.com/logo.png)')).toBe(
      '<p><img src="https://example.com/logo.png" alt="logo"></p>\n',
    );
  });
});

describe('isAllowedLink', () => {
  it.each([
    ['https://example.com', true],
    ['http://example.com', true],
    ['mailto:a@example.com', true],
    ['/privacy', true],
    ['#cookies', true],
    ['?page=2', true],
    ['privacy/more:colon', true],
    ['javascript:alert(1)', false],
    [' JAVASCRIPT:alert(1)', false],
    ['java\nscript:alert(1)', false],
    ['vbscript:x', false],
    ['data:text/html,x', false],
    ['file:///etc/passwd', false],
    ['ftp://example.com', false],
  ])('%j → %s', (url, allowed) => {
    expect(isAllowedLink(url)).toBe(allowed);
  });
});
