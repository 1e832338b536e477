// A2UI over AG-UI, the way @ag-ui/a2ui-middleware sends it (PROTOCOLS.md §1 "Over AG-UI"): one
// ACTIVITY_SNAPSHOT per surface holding the whole v0.9 message list, re-sent whole on change.
import type { SurfaceSection } from '@weft/core';
import { toA2ui } from './a2ui-export.ts';
import type { ToA2uiOptions } from './a2ui-export.ts';
import type { A2uiMessage } from './a2ui-types.ts';
import type { Converted } from './notes.ts';

export const A2UI_ACTIVITY_TYPE = 'a2ui-surface';

export interface A2uiActivitySnapshot {
  type: 'ACTIVITY_SNAPSHOT';
  messageId: string;
  activityType: typeof A2UI_ACTIVITY_TYPE;
  content: { a2ui_operations: A2uiMessage[] };
  replace: true;
  timestamp?: number;
}

export function a2uiActivitySnapshot(section: SurfaceSection, callId: string, opts: ToA2uiOptions & { timestamp?: number } = {}): Converted<A2uiActivitySnapshot> {
  const { value, notes } = toA2ui(section, opts);
  const event: A2uiActivitySnapshot = {
    type: 'ACTIVITY_SNAPSHOT',
    messageId: `a2ui-surface-${callId}`,
    activityType: A2UI_ACTIVITY_TYPE,
    content: { a2ui_operations: value },
    replace: true,
  };
  if (opts.timestamp !== undefined) event.timestamp = opts.timestamp;
  return { value: event, notes };
}
