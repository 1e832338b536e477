// The text `get_catalog` serves: shared/interop's catalogPrompt, generated from the same schemas
// the validator uses, so what a model is told cannot drift from what is checked.
import type { Catalog } from '@weft/core';
import { catalogPrompt } from '@weft/interop';

export function catalogText(catalog: Catalog): string {
  return catalogPrompt(catalog);
}
