import type { Connection } from '@hocuspocus/server';

/** Closes the socket itself with a code from our registry (Hocuspocus's own close carries only a reason). */
export function closeSocket(connection: Connection, code: number, reason: string): void {
  (connection as unknown as { webSocket: { close(code: number, reason: string): void } }).webSocket.close(code, reason);
}
