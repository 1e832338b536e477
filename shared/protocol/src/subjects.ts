// NATS subjects. Draft ids are [a-z0-9-], safe as subject tokens.
export const draftSubject = (draftId: string): string => `weft.draft.${draftId}.events`;
export const ALL_DRAFTS_SUBJECT = 'weft.draft.*.events';
export const msgId = (draftId: string, version: number): string => `${draftId}:${version}`;
