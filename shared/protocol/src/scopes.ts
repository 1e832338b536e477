// A token's scopes: `{ "<draftId>" | "*": ["read","write"] }`, keyed by ids that users choose.
// Own-property lookups only: a draft named `constructor` or `toString` must find that draft's
// entry (or none), never Object.prototype's function (GET /v1/drafts answered 500 for good).
import type { Scope } from './http.ts';

/** Whether `scopes` grant `scope` on `draftId`, directly or through `*`. */
export function scopeAllows(scopes: Readonly<Record<string, readonly Scope[]>>, draftId: string, scope: Scope): boolean {
  const granted = (key: string): boolean => {
    if (!Object.hasOwn(scopes, key)) return false;
    const list: unknown = scopes[key];
    return Array.isArray(list) && list.includes(scope);
  };
  return granted(draftId) || granted('*');
}
