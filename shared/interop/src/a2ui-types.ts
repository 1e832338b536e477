// A2UI v0.9 wire shapes (server → client), as far as Weft reads and writes them (PROTOCOLS.md §1).

export const A2UI_VERSION = 'v0.9';
/** v0.9.1 renamed the MIME type (was `application/json+a2ui`); the schemas are unchanged. */
export const A2UI_MIME = 'application/a2ui+json';
export const A2UI_BASIC_CATALOG_ID = 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json';

export type A2uiValue = null | boolean | number | string | A2uiValue[] | { [key: string]: A2uiValue };

export interface A2uiComponent {
  id: string;
  component: string;
  [prop: string]: A2uiValue;
}

export interface A2uiCreateSurface {
  version: 'v0.9';
  createSurface: { surfaceId: string; catalogId: string; theme?: { [key: string]: A2uiValue }; sendDataModel?: boolean };
}
export interface A2uiUpdateComponents {
  version: 'v0.9';
  updateComponents: { surfaceId: string; components: A2uiComponent[] };
}
export interface A2uiUpdateDataModel {
  version: 'v0.9';
  updateDataModel: { surfaceId: string; path?: string; value?: A2uiValue };
}
export interface A2uiDeleteSurface {
  version: 'v0.9';
  deleteSurface: { surfaceId: string };
}
export type A2uiMessage = A2uiCreateSurface | A2uiUpdateComponents | A2uiUpdateDataModel | A2uiDeleteSurface;
