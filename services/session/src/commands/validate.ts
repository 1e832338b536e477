import type { z } from 'zod';
import { WeftError } from './errors.ts';

/**
 * Parses a request part with its route schema; the first problem becomes the typed error every
 * door answers with: BAD_REQUEST (PAYLOAD_TOO_LARGE for a list over its maximum), the schema's own
 * message, and the JSON Pointer of the offending value.
 */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw issueError(r.error.issues[0]!);
}

export function issueError(issue: z.core.$ZodIssue): WeftError {
  let path = issue.path;
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') {
    path = [...path, issue.keys[0]!];
    const named = `Unknown field "${issue.keys[0]!}".`;
    if (!message.startsWith(named)) message = `${named} ${message}`;
  }
  // A record key's own check carries the message (`Scope key "X" must be …`).
  if (issue.code === 'invalid_key' && issue.issues[0]) message = issue.issues[0].message;
  const code = issue.code === 'too_big' && issue.origin === 'array' ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST';
  // A custom issue may name a place below its path as a JSON Pointer of its own (`params.pointer`).
  const below = issue.code === 'custom' && typeof issue.params?.['pointer'] === 'string' ? issue.params['pointer'] : '';
  const pointer = toPointer(path) + below;
  return new WeftError(code, message, pointer === '' ? {} : { path: pointer });
}

/** RFC 6901: `~` as `~0`, `/` as `~1`. */
export function toPointer(path: readonly PropertyKey[]): string {
  return path.map((p) => `/${String(p).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}
