// Where the A2UI conformance data lives for tests: WEFT_CONFORMANCE_DIR, else ../shared/conformance
// beside the repository (CI copies shared/ next to the clone). Test-only helper.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export function conformanceDir(): string {
  return process.env['WEFT_CONFORMANCE_DIR'] ?? path.resolve(repoRoot, '..', 'shared', 'conformance');
}

export function readConformance(...parts: string[]): string {
  return readFileSync(path.join(conformanceDir(), ...parts), 'utf8');
}

export function readConformanceJson(...parts: string[]): unknown {
  return JSON.parse(readConformance(...parts));
}

export interface A2uiExample { file: string; name: string; messages: unknown[] }

export function a2uiExamples(): A2uiExample[] {
  const dir = path.join(conformanceDir(), 'a2ui-v0.9', 'examples');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const d = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { name: string; messages: unknown[] };
      return { file, name: d.name, messages: d.messages };
    });
}

/**
 * The A2UI server→client validator: ajv 2020 (the schemas say draft 2020-12) with
 * common_types.json and the basic catalog, registered also under the `catalog.json` id that
 * server_to_client.json and common_types.json reference relatively.
 */
export async function a2uiValidator(schema = 'server_to_client.json'): Promise<(v: unknown) => { ok: boolean; errors: string }> {
  const { Ajv2020 } = await import('ajv/dist/2020.js');
  const formats = (await import('ajv-formats')).default as unknown as { default: (a: unknown) => void };
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  formats.default(ajv);
  const dir = ['a2ui-v0.9', 'json'];
  const catalog = readConformanceJson('a2ui-v0.9', 'basic_catalog.json') as Record<string, unknown>;
  ajv.addSchema(readConformanceJson(...dir, 'common_types.json') as object);
  ajv.addSchema(catalog);
  ajv.addSchema({ ...catalog, $id: 'https://a2ui.org/specification/v0_9/catalog.json' });
  const validate = ajv.compile(readConformanceJson(...dir, schema) as object);
  return (v) => {
    const ok = validate(v) as boolean;
    return { ok, errors: ok ? '' : ajv.errorsText(validate.errors) };
  };
}
