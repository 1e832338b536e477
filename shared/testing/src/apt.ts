// The harness installs what a fresh machine lacks with Debian's apt-get (PLATFORM.md): the test
// servers and tools are found on PATH, or installed once, or the run stops saying what is missing.
import { execFileSync } from 'node:child_process';

/** Installs Debian packages, quietly (no prompts, no recommends unless asked). */
export function aptInstall(packages: string, o: { recommends?: boolean } = {}): void {
  const extra = o.recommends === false ? ' --no-install-recommends' : '';
  execFileSync('sh', ['-c', `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq${extra} ${packages}`], { stdio: 'ignore' });
}

/** `command` on PATH, installing `aptPackage` when it is not there; throws naming both otherwise. */
export function commandOrInstall(command: string, aptPackage: string, o: { recommends?: boolean } = {}): string {
  const onPath = (): boolean => {
    try { execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }); return true; } catch { return false; }
  };
  if (!onPath()) {
    aptInstall(aptPackage, o);
    if (!onPath()) throw new Error(`${command} is not on PATH and apt-get install ${aptPackage} failed (.ci/run installs it)`);
  }
  return command;
}
