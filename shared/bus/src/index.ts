export { draftSubject, ALL_DRAFTS_SUBJECT, msgId, assertDraftId, isBusMessage, DRAFT_ID } from './bus.ts';
export type { Bus, BusMessage, BusHandler, BusStats, DeliveryMeta, SubscribePattern, Subscription } from './bus.ts';
export { createMemoryBus } from './memory-bus.ts';
export type { MemoryBusOptions } from './memory-bus.ts';
export { BusUnreachable, createNatsBus } from './nats-bus.ts';
export type { NatsBusOptions } from './nats-bus.ts';
export { DraftFollower } from './draft-follower.ts';
export type { DraftFollowerDeps, FollowerStats, VersionEvents } from './draft-follower.ts';
