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
