import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ErrorCode, RULE_KIND, Rule, refusalOf, ruleKind } from './errors.ts';

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
    for (const r of rows) expect(r[3]!.length, `meaning of ${r[0]}`).toBeGreaterThan(5);
  });

  it('[ER3] gives every rule the kind RULE_KIND gives it', () => {
    const documented = Object.fromEntries(tableRows('Rules').map((r) => [r[0]!.replaceAll('`', ''), r[2]]));
    expect(documented).toEqual(RULE_KIND);
  });
});

describe('RULE_KIND', () => {
  it('[ER4] classifies every rule, and nothing else, as emission or contract', () => {
    expect(Object.keys(RULE_KIND).sort()).toEqual(Object.keys(Rule).sort());
    for (const [rule, kind] of Object.entries(RULE_KIND)) expect(['emission', 'contract'], rule).toContain(kind);
  });
  it('[ER5] a refusal carries its rule\'s kind; ruleKind reads own keys only', () => {
    expect(refusalOf('invalid_op', '/x', 'm', 0)).toEqual({ code: 'VALIDATION_FAILED', rule: 'invalid_op', kind: 'emission', path: '/x', message: 'm', index: 0 });
    expect(refusalOf('invalid_props', '/x', 'm', 1).kind).toBe('contract');
    for (const bad of ['toString', '__proto__', 'constructor', '', 'INVALID_OP', 3, null]) expect(ruleKind(bad), String(bad)).toBeUndefined();
  });
});
