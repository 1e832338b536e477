// The evaluators the browser's interaction runtime bundles, so the page and the server render run
// one implementation of bindings, named functions, conditions and pointers. A separate entry
// (`@weft/core/evaluate`) because the index also loads the catalog (ajv), far over the budget.
export { resolveValue } from './bindings.ts';
export { evalCondition } from './conditions.ts';
export { parsePointer, getAt } from './pointer.ts';
