export { PROTOCOL_VERSION, AG_UI_VERSION } from './version.ts';
export { CloseCode, closeCodeFor } from './close-codes.ts';
export {
  CustomEventName, deltaOps, stepEvents, stateSnapshot, stateDelta, repairsEvent, refusedEvent, runStarted, runFinished, readerActionEvent, activityEvent, followRunStarted, asOneRun,
} from './agui.ts';
export type {
  AgUiEvent, StateSnapshotEvent, StateDeltaEvent, RunStartedEvent, RunFinishedEvent, RunErrorEvent,
  CustomEvent, WeftEventMeta, StepLike, ReaderAction, RunInput, RunOutcome, RunEvent,
  TextMessageStartEvent, TextMessageContentEvent, TextMessageEndEvent, ToolCallStartEvent, ToolCallArgsEvent,
  ToolCallEndEvent, ToolCallResultEvent, StepStartedEvent, StepFinishedEvent,
} from './agui.ts';
export type { RunStatus, RunScope, RunView, RunWithEvents, CreateRunRequest, ReportEventsResponse, StepOutcome, GhostValue, RunEventError } from './runs.ts';
export { parseReportedEvents, RUN_ID, RunLimits } from './runs.ts';
export type {
  Scope, ActorKind, MintTokenRequest, MintTokenResponse, CreateDraftRequest, DraftResponse,
  SubmitOpsRequest, SubmitOpsResponse, UndoRequest, StepView, EventsResponse, VersionEntry,
  OpenSessionResponse,
} from './http.ts';
export type { SubmitMessage, Upstream, ResultMessage, YjsRefusalMessage, EpochMessage, Downstream } from './messages.ts';
export { draftSubject, ALL_DRAFTS_SUBJECT, msgId } from './subjects.ts';
export { scopeAllows } from './scopes.ts';
export { WebhookEventType, WEBHOOK_EVENT_TYPES, isWebhookEventType, stepMessages, wholeRefusalMessage, turnFinishedMessage } from './webhooks.ts';
export type {
  WebhookPayload, WebhookMessage, WebhookActor, CreateWebhookRequest, CreateWebhookResponse, WebhookEndpointView, WebhookDeliveryView,
  WebhookDeliveryStatus, WebhookAttemptView, WebhookDeliveriesResponse, VersionCommittedData, TurnFinishedData, StepRefusedData, WebhookDataByType, LoggedStepLike,
} from './webhooks.ts';
export { readOpsField } from './ops-field.ts';
