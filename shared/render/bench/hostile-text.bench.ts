// Hostile text timing: `npx tsx shared/render/bench/hostile-text.bench.ts`
// Each adversarial unit repeated to 10 k, 100 k and 1 M characters through block markdown (with
// fences in prose) and inline markdown: linear means ~10× the time per 10× the size.
import { renderInline } from '../src/inline.ts';
import { renderMarkdown } from '../src/markdown.ts';
import { findSurfaceFences } from '@weft/interop';

const none = (): void => {};
const UNITS: Record<string, string> = {
  'heading+U+2028': '# a\u2028b\n',
  'list lines': '- x\n',
  'quote marks': '> ',
  'open fences': '```\n',
  'surface fences': '```surface {"id":"f"}\n',
  'open bold': '**a',
  'open links': '[a](',
  'backticks': '`',
  'NUL + surrogates': '\u0000\ud800',
};
const time = (f: () => unknown): number => { const t = performance.now(); f(); return performance.now() - t; };
console.log(['unit', '10k ms', '100k ms', '1M ms', '1M/10k'].join('\t'));
for (const [name, unit] of Object.entries(UNITS)) {
  const ms = [10_000, 100_000, 1_000_000].map((n) => {
    const s = unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
    return time(() => { renderMarkdown(s, none); renderInline(s, none); findSurfaceFences(s); });
  });
  console.log([name, ...ms.map((m) => m.toFixed(1)), (ms[2]! / Math.max(ms[0]!, 0.01)).toFixed(0)].join('\t'));
}
