export { PROTOCOL_VERSION, AG_UI_VERSION } from './version.ts';
export { CloseCode, closeCodeFor } from './close-codes.ts';
export {
  CustomEventName, stepEvents, stateSnapshot, stateDelta, repairsEvent, refusedEvent, runStarted, runFinished, readerActionEvent, activityEvent,
} from './agui.ts';
export type {
  AgUiEvent, StateSnapshotEvent, StateDeltaEvent, RunStartedEvent, RunFinishedEvent, RunErrorEvent,
  CustomEvent, WeftEventMeta, StepLike, ReaderAction,
} from './agui.ts';
export type {
  Scope, ActorKind, MintTokenRequest, MintTokenResponse, CreateDraftRequest, DraftResponse,
  SubmitOpsRequest, SubmitOpsResponse, UndoRequest, StepView, EventsResponse, VersionEntry,
  OpenSessionResponse,
} from './http.ts';
export type { SubmitMessage, Upstream, ResultMessage, YjsRefusalMessage, EpochMessage, Downstream } from './messages.ts';
export { draftSubject, ALL_DRAFTS_SUBJECT, msgId } from './subjects.ts';
export { scopeAllows } from './scopes.ts';
export { readOpsField } from './ops-field.ts';
