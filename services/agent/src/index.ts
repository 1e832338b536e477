// Public surface of @weft/agent: the reference agents and the transport seam.
export type { BuildTransport, SubmitResult, SubmitOpts } from './transport.ts';
export { HttpBuildTransport, PeerBuildTransport, LocalBuildTransport } from './transport.ts';
export type { ScriptStep } from './landing-script.ts';
export { LANDING_SCRIPT } from './landing-script.ts';
export type { ScriptedEvent, ScriptedOptions } from './scripted-builder.ts';
export { runScript } from './scripted-builder.ts';
export type { BuildOptions, BuildReport, StepRecord, StepStatus } from './model-builder.ts';
export { buildFromBrief, draftSummary, feedback } from './model-builder.ts';
export type { ChatMessage, Complete } from './model-client.ts';
export { chatCompletions, ModelError } from './model-client.ts';
export type { ModelConfig } from './model-config.ts';
export { parseModelConfig, modelEnv } from './model-config.ts';
export { catalogPromptText } from './prompt.ts';
export type { AgentDeps, RunStatus, RunView } from './agent-http.ts';
export { agentHandler, NO_MODEL_MESSAGE } from './agent-http.ts';
export type { BriefRequest, BriefScope } from './brief-request.ts';
export { parseBriefRequest, scopedBrief, scopePointer } from './brief-request.ts';
