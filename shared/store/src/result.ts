// Local constructors for core's Result, so the store needs only `import type` from @weft/core.
import type { Result } from '@weft/core';

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const err = <E>(error: E): Result<never, E> => ({ ok: false, error });
