export { WeftHttpClient, WeftError } from './http-client.ts';
export type { SubmitInput, ClientOptions } from './http-client.ts';
export type { TransportOptions } from './transport.ts';
export { WeftPeer } from './peer.ts';
export type { PeerPresence, JoinOptions } from './peer.ts';
