/**
 * Engine benchmark: scores every valid hand of the conformance file repeatedly
 * (parsing done once, outside the timed loop) and prints hands per second.
 *   npm run bench:engine [-- --json] [-- --seconds 5]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { Hand, WinContext } from '../../src/engine/index.ts';
import { BatchContext, toWinContext } from '../../src/cli/batch.ts';
import { sharedDir } from '../shared-dir.ts';

// Measure the engine as it ships: bundled and minified (no dev-loader wrappers).
const outfile = join(mkdtempSync(join(tmpdir(), 'bench-engine-')), 'engine.mjs');
await build({ entryPoints: [new URL('../../src/engine/index.ts', import.meta.url).pathname], bundle: true, format: 'esm', platform: 'neutral', minify: !process.env.BENCH_NO_MINIFY, outfile, logLevel: 'error' });
const { parseHand, scoreMcr } = (await import(pathToFileURL(outfile).href)) as typeof import('../../src/engine/index.ts');

const { values } = parseArgs({ options: { json: { type: 'boolean' }, seconds: { type: 'string' }, file: { type: 'string' } } });
const file = values.file ?? join(sharedDir(), 'conformance', 'mcr-public.jsonl');
let text: string;
try { text = readFileSync(file, 'utf8'); } catch { console.error(`error: cannot read ${file}`); process.exit(2); }
const cases: { hand: Hand; ctx: WinContext }[] = [];
for (const line of text.split('\n')) {
  if (!line.trim()) continue;
  const d = JSON.parse(line);
  if (!d.expected?.valid_win) continue;
  cases.push({ hand: parseHand(d.hand), ctx: toWinContext(BatchContext.parse(d.context)) });
}
const seconds = Number(values.seconds ?? 3);
// Warm-up (JIT and the combination memo).
for (const c of cases) scoreMcr(c.hand, c.ctx);
let n = 0;
let checksum = 0;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
let elapsed = 0;
while (elapsed < seconds * 1000) {
  for (const c of cases) checksum += scoreMcr(c.hand, c.ctx).total;
  n += cases.length;
  elapsed = performance.now() - t0;
}
const cpu = process.cpuUsage(cpu0);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
const hps = Math.round(n / (elapsed / 1000));
console.log(`${cases.length} valid hands, ${n} scored in ${(elapsed / 1000).toFixed(2)} s (process CPU ${cpuSeconds.toFixed(2)} s, checksum ${checksum})`);
console.log(`${hps.toLocaleString('en')} hands per second (one thread, Node ${process.version}; full results: fans, exclusions, payments)`);
if (cpuSeconds > (elapsed / 1000) * 1.05 || cpuSeconds < (elapsed / 1000) * 0.9) console.log('note: the machine was busy during the run; repeat on an idle machine for a stable figure');
if (values.json) console.log(JSON.stringify({ hands_per_second: hps }));
