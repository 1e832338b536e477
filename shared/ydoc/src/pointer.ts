// RFC 6901 JSON Pointers as segment lists. Kept local so the mirror needs nothing from core at run time.

export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new YDocPathError(pointer, 'a JSON Pointer starts with "/"');
  return pointer.slice(1).split('/').map((s) => {
    if (/~[^01]|~$/.test(s)) throw new YDocPathError(pointer, 'bad "~" escape');
    return s.replace(/~1/g, '/').replace(/~0/g, '~');
  });
}

export function formatPointer(segments: readonly string[]): string {
  return segments.map((s) => '/' + s.replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/**
 * An op that cannot be applied to the doc. Ops reach the mirror only after validation against the
 * same JSON, so this signals a bug (or a doc that drifted from the mirror): it throws.
 */
export class YDocPathError extends Error {
  readonly path: string;
  constructor(path: string, reason: string) {
    super(`${reason}: ${JSON.stringify(path)}`);
    this.name = 'YDocPathError';
    this.path = path;
  }
}
