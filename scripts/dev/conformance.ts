/** Developer tool: compare the engine with ../shared/conformance/mcr-public.jsonl and list differences. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { scoreLine } from '../../src/cli/batch.ts';
import { sharedDir } from '../shared-dir.ts';

const file = process.argv[2] ?? path.join(sharedDir(), 'conformance', 'mcr-public.jsonl');
const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
let ok = 0, bad = 0;
const verbose = process.argv.includes('-v');
for (const line of lines) {
  const d = JSON.parse(line);
  const r = scoreLine(d);
  const e = d.expected;
  const fansKey = (fs: { id: number; count: number }[]) => fs.map((f) => `${f.id}x${f.count}`).sort().join(' ');
  let same = r.valid_win === e.valid_win && r.error_class === e.error_class && (r.total ?? null) === (e.total ?? null);
  if (same && !d.meta?.equal_score_alternatives && e.fans) same = fansKey(r.fans) === fansKey(e.fans);
  if (same) ok++;
  else {
    bad++;
    if (verbose || bad <= 40) console.log(`${d.id} ${d.hand} ${JSON.stringify(d.context)}\n   want ${e.error_class} ${e.total} ${fansKey(e.fans ?? [])}\n   got  ${r.error_class} ${r.total} ${fansKey(r.fans)}`);
  }
}
console.log(`${ok} passed, ${bad} failed`);
