import type { OpenApiDocument, OperationObject, ResponseObject } from './openapi';

interface Entry {
  method: string;
  path: string;
  operation: OperationObject;
}

/**
 * The document as one readable page, rendered on the server from the object `/api/docs` serves: no
 * script and nothing fetched, so it works offline and under a policy that allows only its inline style.
 */
export function renderDocsPage(document: OpenApiDocument): string {
  const entries = entriesOf(document);
  const sections = document.tags.map(({ name }) =>
    section(
      name,
      entries.filter((entry) => entry.operation.tags.includes(name)),
    ),
  );
  const schemas = Object.entries(document.components.schemas).map(
    ([name, schema]) =>
      `<details id="schema-${escapeHtml(name)}"><summary>${escapeHtml(name)}</summary><pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre></details>`,
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(document.info.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(document.info.title)} <small>OpenAPI ${escapeHtml(document.openapi)}, version ${escapeHtml(document.info.version)}</small></h1>
<p>${inline(document.info.description)} The document itself: <a href="/api/docs">/api/docs</a>.
🔒 needs the session cookie <code>sid</code>; (🔒) works with or without one.</p>
${sections.join('\n')}
<h2>Schemas</h2>
${schemas.join('\n')}
</body>
</html>
`;
}

function entriesOf(document: OpenApiDocument): Entry[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method, path, operation })),
  );
}

function section(tag: string, entries: Entry[]): string {
  return `<h2>${escapeHtml(tag)}</h2>\n<ul class="operations">\n${entries.map(operationItem).join('\n')}\n</ul>`;
}

function operationItem({ method, path, operation }: Entry): string {
  const body = operation.requestBody?.content['application/json'].schema.$ref;
  const parameters = (operation.parameters ?? []).map(
    (parameter) =>
      `<code>${escapeHtml(parameter.name)}</code> (${parameter.in}) ${inline(parameter.description)}`,
  );
  const lines = [
    `<p><code class="method ${method}">${method.toUpperCase()}</code> <code>${escapeHtml(path)}</code> ${lock(operation)}${escapeHtml(operation.summary)}</p>`,
    operation.description ? `<p>${inline(operation.description)}</p>` : '',
    parameters.length > 0 ? `<p>Parameters: ${parameters.join('; ')}</p>` : '',
    typeof body === 'string' ? `<p>Body (JSON): ${schemaLink(body)}</p>` : '',
    `<ul class="responses">${Object.entries(operation.responses).map(responseItem).join('')}</ul>`,
  ];
  return `<li>${lines.filter(Boolean).join('\n')}</li>`;
}

function lock(operation: OperationObject): string {
  if (operation.security.length === 0) return '';
  return operation.security.some((requirement) => Object.keys(requirement).length === 0) ? '(🔒) ' : '🔒 ';
}

function responseItem([status, response]: [string, ResponseObject]): string {
  const json = response.content?.['application/json']?.schema;
  const shape = json?.$ref
    ? schemaLink(String(json.$ref))
    : json?.type === 'array'
      ? `list of ${schemaLink(String((json.items as { $ref?: string } | undefined)?.$ref))}`
      : '';
  const other = Object.keys(response.content ?? {}).filter((type) => type !== 'application/json');
  const codes = response['x-error-codes']?.map((code) => `<code>${code}</code>`).join(', ');
  const what =
    codes ?? [inline(response.description), shape, ...other.map(escapeHtml)].filter(Boolean).join(' · ');
  return `<li><b class="status s${status[0]}">${escapeHtml(status)}</b> ${what}</li>`;
}

function schemaLink(ref: string): string {
  const name = ref.split('/').at(-1) ?? '';
  return `<a href="#schema-${escapeHtml(name)}">${escapeHtml(name)}</a>`;
}

/** Escapes, then shows `code` spans as code: the descriptions are written in Markdown's inline style. */
const inline = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const STYLE = `
body { font: 15px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #212529; }
h1 small { font-size: .9rem; font-weight: normal; color: #868e96; }
h2 { margin-top: 2rem; border-bottom: 1px solid #dee2e6; }
ul.operations { list-style: none; padding: 0; }
ul.operations > li { margin: 0 0 1rem; padding: .5rem .75rem; border: 1px solid #e9ecef; border-radius: 6px; }
ul.operations p { margin: .25rem 0; }
ul.responses { margin: .25rem 0; padding-left: 1.25rem; }
code { font: 13px ui-monospace, monospace; background: #f1f3f5; padding: 0 .25rem; border-radius: 3px; }
code.method { color: #fff; font-weight: bold; background: #495057; }
code.get { background: #1971c2; } code.post { background: #2f9e44; }
code.patch { background: #e8590c; } code.delete { background: #c92a2a; }
.status { font-family: ui-monospace, monospace; } .s2, .s3 { color: #2f9e44; } .s4, .s5 { color: #c92a2a; }
pre { background: #f8f9fa; padding: .5rem; overflow-x: auto; font-size: 12px; }
`;
