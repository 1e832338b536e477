import { describe, expect, it } from 'vitest';
import { EventSchemas } from '@ag-ui/core/schemas';
import type { SurfaceSection } from '@weft/core';
import { a2uiActivitySnapshot } from './a2ui-agui.ts';

describe('A2UI over AG-UI', () => {
  it('wraps the export in an ACTIVITY_SNAPSHOT that @ag-ui/core accepts', () => {
    const s: SurfaceSection = { id: 'hero', kind: 'surface', catalog: 'weft@1', data: {}, components: { root: { id: 'root', component: 'Heading', props: { text: 'Hi', level: 1 } } } };
    const { value } = a2uiActivitySnapshot(s, 'call-1', { timestamp: 1 });
    expect(EventSchemas.safeParse(value).success).toBe(true);
    expect(EventSchemas.safeParse({ ...value, activityType: 7 }).success).toBe(false);
    expect(value).toMatchObject({ messageId: 'a2ui-surface-call-1', activityType: 'a2ui-surface', replace: true });
    expect(value.content.a2ui_operations.map((m) => Object.keys(m)[1])).toEqual(['createSurface', 'updateComponents']);
  });
});
