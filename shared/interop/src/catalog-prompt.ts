// The model's instructions, generated from the same Catalog the validator uses (RFC 000 §2
// "One source for prompts"), so the prompt cannot promise what validation refuses.
import { Limits } from '@weft/core';
import type { Catalog, CatalogEntry, JSONSchema } from '@weft/core';

export interface CatalogPromptOptions {
  /** Section id used in the worked examples (default "hero"). */
  exampleSectionId?: string;
  /** Include the ```surface fence syntax for markdown bodies (default true). */
  fences?: boolean;
}

/** Marks the lines of the prompt that are complete, valid examples (the drift test reads them). */
export const PROMPT_EXAMPLE_MARK = 'Example: ';
export const PROMPT_STEP_MARK = 'Step: ';

export function catalogPrompt(catalog: Catalog, opts: CatalogPromptOptions = {}): string {
  const sid = opts.exampleSectionId ?? 'hero';
  const out: string[] = [];
  const p = (...lines: string[]): void => {
    out.push(...lines);
  };
  p(
    `# Building a Weft page (catalog ${catalog.id})`,
    '',
    'You edit a page draft by writing JSON Lines: one JSON object per line, each a step.',
    '- `{"ops":[…]}`: a list of RFC 6902 JSON Patch operations (add, remove, replace, move, copy, test), applied together.',
    '- `{"say":"…"}`: a short note to the person.',
    '- `{"done":true}`: you are finished.',
    'Write nothing else: no code, HTML, CSS or script. Each step is validated; a refused step comes back with its JSON Pointer and reason.',
    '',
    '## The draft',
    '`{"id","title","order":[section ids],"sections":{"<sid>":Section}}`. Sections and components are keyed by id, so address them by id, never by position.',
    '- Section: `{"id":"<sid>","kind":"surface","catalog":"' + catalog.id + '","components":{"<cid>":Component},"data":{…},"style"?:{"width":"narrow|normal|wide|full","tone":"default|muted|accent|inverse","motion":"none|fade|rise"}}`.',
    '- Component: `{"id":"<cid>","component":"<Name>","props":{…},"children"?:["<cid>",…],"visible"?:Condition}`.',
    '- Paths: `/sections/<sid>` (adding a section appends it to order; removing it takes it out), `/sections/<sid>/components/<cid>`, `/sections/<sid>/components/<cid>/props/<prop>`, `/sections/<sid>/components/<cid>/children/-`, `/sections/<sid>/data/<key>`.',
    '- A new surface carries its root in the same step: add the whole section with its component "root" (and root\'s children) in one op.',
    '- `/order` lists section ids top to bottom; move a section with a replace of /order.',
    '',
    '## Rules and limits',
    `- Ids match [a-z][a-z0-9-]{0,40} (kebab-case: "hero-title", not "heroTitle") and are unique in the surface; one component has id "root".`,
    `- children name ids in the same surface; the tree is acyclic, at most ${Limits.maxTreeDepth} levels deep, and every component is reachable from root.`,
    `- At most ${Limits.maxComponents} components per surface, ${Limits.maxDataBytes / 1024} KB of data per surface, ${Limits.maxSurfaces} surfaces per page.`,
    '- Only catalog components; props must pass the component\'s schema; unknown props are dropped.',
    '',
    '## Values',
    '- A bindable prop (marked B) takes a literal, a binding `{"path":"/json/pointer"}` into the section data, or a function call `{"call":"<name>","args":{…}}`.',
    '- Functions (a fixed set; args are literals, bindings or, for concat parts, nested calls):',
  );
  for (const f of Object.values(catalog.functions)) {
    const args = Object.entries(f.args).map(([k, a]) => `${k}${a.required ? '*' : ''}${a.enum ? ` ${a.enum.join('|')}` : ''}`);
    p(`  - ${f.name}(${args.join(', ')}) → ${f.returns}: ${f.description}`);
  }
  p(
    '- Conditions (`visible`): `{"eq":[a,b]}`, `{"ne":[a,b]}`, `{"gt":[a,b]}`, `{"lt":[a,b]}`, `{"and":[c,…]}`, `{"or":[c,…]}`, `{"not":c}`; operands are literals or `{"path"}`.',
    '- Actions (Button.onClick, Form.onSubmit) are named; their fields:',
  );
  for (const a of Object.values(catalog.actions)) {
    const fields = Object.entries(a.fields).map(([k, f]) => `"${k}"${f.required ? '*' : ''}: ${f.kind}`);
    p(`  - {"action":"${a.name}"${fields.length ? ', ' + fields.join(', ') : ''}}: ${a.description}`);
  }
  p('', '## Components', '`*` = required, `B` = bindable. Each example is a complete, valid component.');
  for (const name of catalog.componentNames) {
    const e = catalog.getEntry(name);
    if (e !== undefined) p('', ...describeEntry(e));
  }
  p(
    '',
    '## A worked example',
    'A new surface with its root, in one step:',
    PROMPT_STEP_MARK + JSON.stringify({ ops: [
      { op: 'add', path: `/sections/${sid}`, value: {
        id: sid, kind: 'surface', catalog: catalog.id, data: { headline: 'Hello' },
        components: {
          root: { id: 'root', component: 'Stack', children: ['title'] },
          title: { id: 'title', component: 'Heading', props: { text: { path: '/headline' }, level: 1 } },
        },
      } },
    ] }),
    'Then add a component and link it under root:',
    PROMPT_STEP_MARK + JSON.stringify({ ops: [
      { op: 'add', path: `/sections/${sid}/components/intro`, value: { id: 'intro', component: 'Text', props: { text: 'Welcome.' } } },
      { op: 'add', path: `/sections/${sid}/components/root/children/-`, value: 'intro' },
    ] }),
    '{"say":"Added a heading and an intro."}',
    '{"done":true}',
  );
  if (opts.fences !== false) {
    p(
      '',
      '## Surfaces inside markdown',
      'In an article body, a surface is a fenced block: the info string holds its id and catalog, and every following line is one component or a `{"data":…}` merge. Components may come in any order; nothing shows until "root" exists.',
      '```surface {"id":"pricing","catalog":"' + catalog.id + '"}',
      '{"data":{"billing":"monthly"}}',
      '{"id":"root","component":"Stack","children":["switch"]}',
      '{"id":"switch","component":"Toggle","props":{"options":["monthly","yearly"],"value":{"path":"/billing"}}}',
      '```',
    );
  }
  return out.join('\n');
}

function describeEntry(e: CatalogEntry): string[] {
  const props = (e.props['properties'] ?? {}) as Record<string, JSONSchema>;
  const required = new Set(e.required);
  const bindable = new Set(e.bindable);
  const children = e.children === 'none' ? 'no children' : e.children === 'any' ? 'children: any' : `children: only ${e.children.join(', ')}`;
  const lines = [`### ${e.name} (${e.group}; ${children})`, e.description];
  for (const [k, s] of Object.entries(props)) {
    lines.push(`- ${k}${required.has(k) ? '*' : ''}${bindable.has(k) ? ' B' : ''}: ${typeText(s)}`);
  }
  const example: Record<string, unknown> = { id: exampleId(e.name), component: e.name, props: e.example };
  if (e.children !== 'none') example['children'] = [];
  lines.push(PROMPT_EXAMPLE_MARK + JSON.stringify(example));
  return lines;
}

function exampleId(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'item';
}

/** A compact type text for a prop schema: enums, bounds, defaults, URL kind, nested shapes. */
export function typeText(s: JSONSchema, depth = 0): string {
  if (depth > 4) return 'value';
  if (s['x-bindable'] === true && Array.isArray(s['anyOf'])) return typeText(s['anyOf'][0] as JSONSchema, depth + 1);
  if (s['x-action'] === true) return 'Action';
  if (s['x-checks'] === true) return 'checks [{condition*, message*}]';
  const dflt = s['default'] !== undefined ? ` (default ${JSON.stringify(s['default'])})` : '';
  if (Array.isArray(s['enum'])) return (s['enum'] as unknown[]).map((v) => String(v)).join('|') + dflt;
  if (Array.isArray(s['anyOf'])) return (s['anyOf'] as JSONSchema[]).map((x) => typeText(x, depth + 1)).join(' or ');
  if (Array.isArray(s['oneOf'])) return (s['oneOf'] as JSONSchema[]).map((x) => typeText(x, depth + 1)).join(' or ');
  const t = Array.isArray(s['type']) ? (s['type'] as string[]).join('|') : String(s['type'] ?? 'value');
  if (typeof s['x-url'] === 'string') return `url${s['x-url'] === 'https' ? ' (https only)' : s['x-url'] === 'media' ? ' (or assets/…)' : ''}`;
  if (t === 'array') {
    const items = s['items'] as JSONSchema | undefined;
    const bounds = s['minItems'] !== undefined || s['maxItems'] !== undefined ? ` (${String(s['minItems'] ?? 0)}–${String(s['maxItems'] ?? '')} items)` : '';
    return `array of ${items ? typeText(items, depth + 1) : 'values'}${bounds}`;
  }
  if (t === 'object' && s['properties'] !== undefined) {
    const req = new Set((s['required'] as string[] | undefined) ?? []);
    const fields = Object.entries(s['properties'] as Record<string, JSONSchema>).map(([k, v]) => `${k}${req.has(k) ? '*' : ''}: ${typeText(v, depth + 1)}`);
    return `{${fields.join(', ')}}`;
  }
  const range = s['minimum'] !== undefined || s['maximum'] !== undefined ? ` ${String(s['minimum'] ?? '')}–${String(s['maximum'] ?? '')}` : '';
  return `${t}${range}${dflt}`;
}
