import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ErrorCode, Rule } from './errors.ts';

const doc = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
function tableRows(heading: string): string[][] {
  const start = doc.indexOf(`## ${heading}`);
  const end = doc.indexOf('\n## ', start + 1);
  return doc
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));
}

describe('docs/errors.md', () => {
  it('[ER1] documents every ErrorCode with its status, and nothing else', () => {
    const rows = tableRows('Error codes');
    const documented = new Map(rows.map((r) => [r[0]!.replaceAll('`', ''), Number(r[1])]));
    expect([...documented.keys()].sort()).toEqual(Object.keys(ErrorCode).sort());
    for (const [code, def] of Object.entries(ErrorCode)) expect(documented.get(code), code).toBe(def.status);
    for (const r of rows) expect(r[2]!.length, `cause of ${r[0]}`).toBeGreaterThan(5);
  });

  it('[ER2] documents every Rule, and nothing else', () => {
    const rows = tableRows('Rules');
    expect(rows.map((r) => r[0]!.replaceAll('`', '')).sort()).toEqual(Object.keys(Rule).sort());
    for (const r of rows) expect(r[2]!.length, `meaning of ${r[0]}`).toBeGreaterThan(5);
  });
});
