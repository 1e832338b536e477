/**
 * Teardown steps with a bound each: a step that does not finish in time is reported by name
 * (so a hang points at its cause) and teardown goes on, instead of the whole file timing out.
 */
export async function teardown(steps: [string, () => Promise<unknown> | unknown][], boundMs = 20_000): Promise<void> {
  const slow: string[] = [];
  for (const [name, step] of steps) {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<'timeout'>((r) => { timer = setTimeout(() => r('timeout'), boundMs); });
    const outcome = await Promise.race([Promise.resolve().then(step).then(() => 'done' as const), bound]);
    clearTimeout(timer);
    if (outcome === 'timeout') slow.push(name);
  }
  if (slow.length > 0) console.warn(`[teardown] did not finish within ${boundMs} ms: ${slow.join(', ')}`);
}

/** Debian's Chromium, headless, with no background networking (PLATFORM.md; no browser download). */
export const CHROMIUM_LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
};

/** Closes what a preview e2e file started, each step bounded (see teardown). */
export function closeStack(s: { browser?: { close(): Promise<void> }; preview?: { close(): Promise<void> }; server?: import('node:http').Server; session?: { close(): Promise<void> } }): Promise<void> {
  return teardown([
    ['browser', () => s.browser?.close()],
    ['preview', () => s.preview?.close()],
    ['server', () => { s.server?.closeAllConnections(); return new Promise<void>((r) => (s.server ? s.server.close(() => r()) : r())); }],
    ['session', () => s.session?.close()],
  ]);
}
