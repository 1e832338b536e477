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
