import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

/**
 * Frames sent to one socket in one turn of the event loop leave in one write: the first send of a
 * turn corks the socket, and every corked socket is uncorked together right after the turn (one
 * `setImmediate` for all of them). A writer's answer and its step's update, or a burst of steps to a viewer,
 * then cost one syscall and one wake-up of the peer instead of one per frame — on a busy node
 * those writes (each waking another process) were the largest single cost of the session.
 */
const corked = new Set<Socket>();

function uncorkAll(): void {
  for (const s of corked) if (!s.destroyed) s.uncork();
  corked.clear();
}

export function corkPerTurn(ws: WebSocket): void {
  const socket = (ws as unknown as { _socket?: Socket })._socket;
  if (!socket) return;
  const send = ws.send.bind(ws) as (...args: unknown[]) => void;
  (ws as unknown as { send: (...args: unknown[]) => void }).send = (...args: unknown[]) => {
    if (!corked.has(socket) && !socket.destroyed) {
      if (corked.size === 0) setImmediate(uncorkAll);
      corked.add(socket);
      socket.cork();
    }
    send(...args);
  };
}
