export { WeftHttpClient, WeftError } from './http-client.ts';
export type { SubmitInput } from './http-client.ts';
export { WeftPeer } from './peer.ts';
export type { PeerPresence, JoinOptions } from './peer.ts';
