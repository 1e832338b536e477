// The system prompt: shared/interop's catalogPrompt (one source with the validator: components,
// props, bindings, functions, actions, the op and step format).
import { defaultCatalog } from '@weft/core';
import type { Catalog } from '@weft/core';
import { catalogPrompt } from '@weft/interop';

export function catalogPromptText(catalog: Catalog = defaultCatalog): string {
  return catalogPrompt(catalog);
}
