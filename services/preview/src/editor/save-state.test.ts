import { describe, expect, it } from 'vitest';
import { SAVING_AFTER_MS, UNSAVED_AFTER_MS, saveState } from './save-state.ts';

describe('saveState', () => {
  const at = (since: number | null, o: { synced?: boolean; unsynced?: boolean } = {}) => saveState({ synced: o.synced ?? true, unsynced: o.unsynced ?? false, since, now: 100_000 });
  it('says nothing while in step, or before an edit had time to be confirmed', () => {
    expect(at(null)).toBeNull();
    expect(at(100_000 - SAVING_AFTER_MS + 1, { unsynced: true })).toBeNull();
  });
  it('an unconfirmed edit: saving…, then not saved yet (a warning)', () => {
    expect(at(100_000 - SAVING_AFTER_MS, { unsynced: true })).toEqual({ text: 'saving…', cls: '' });
    expect(at(100_000 - UNSAVED_AFTER_MS, { unsynced: true, synced: false })).toMatchObject({ cls: 'wb-warn', text: expect.stringMatching(/^not saved yet/) });
  });
  it('out of sync without edits of its own: reconnecting…', () => {
    expect(at(100_000 - SAVING_AFTER_MS, { synced: false })).toEqual({ text: 'reconnecting…', cls: '' });
  });
});
