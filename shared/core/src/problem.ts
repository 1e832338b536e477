import type { Rule } from './errors.ts';

/** A validation problem before it becomes a Refusal or Note (which add the op index). */
export interface Problem {
  rule: Rule;
  /** JSON Pointer of the offending place (in the draft, or relative inside a value). */
  path: string;
  /** What is wrong AND what to do about it. */
  message: string;
}
