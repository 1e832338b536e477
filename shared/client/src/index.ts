export { WeftHttpClient, WeftError } from './http-client.ts';
export type { SubmitInput } from './http-client.ts';
