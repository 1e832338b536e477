// Why an edit of yours was undone, in words about what happened. A move that crossed someone
// else's move or delete is refused by the server with a tree rule ("listed twice", "not
// reachable"…); said as is, that blames the person for what is a race, so it is named as one.
import type { Rule } from '@weft/core';

export type EditKind = 'move' | 'change';
interface Refused { rule: string; path: string; message: string }

/** Rules a well-formed move can only break because the tree changed under it meanwhile. */
const RACE_RULES: ReadonlySet<string> = new Set<Rule>(['duplicate_id', 'double_parent', 'missing_child', 'unreachable', 'cycle', 'path_not_found']);

const subject = (path: string): string | null => {
  const m = /^\/(?:sections\/([^/]+)(?:\/components\/([^/]+))?|order)/.exec(path);
  return m ? (m[2] ?? m[1] ?? null) : null;
};

export function explainRefusal(refused: readonly Refused[], last: { kind: EditKind; what: string } | null): { conflict: boolean; text: string } {
  const first = refused[0];
  if (!first) return { conflict: false, text: 'Refused: the server reverted your edit.' };
  if (last?.kind === 'move' && refused.every((r) => RACE_RULES.has(r.rule))) {
    const quoted = /"([a-z][a-z0-9-]*)"/.exec(first.message)?.[1] ?? subject(first.path);
    const what = quoted ? `"${quoted}"` : 'it';
    return { conflict: true, text: `Conflict: someone else moved or deleted ${what} at the same moment, so your ${last.what} was undone and theirs kept. Look at where it is now and try again.` };
  }
  return { conflict: false, text: `Refused: ${first.message}` };
}
