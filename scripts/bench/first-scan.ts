/**
 * npm run bench:first -- [--rounds 3] [--image FILE] [--json]
 *
 * The first scan after the models load, which the player at the table waits for: each round
 * starts a fresh Node process (the wasm engine's compiled code and the runtime's memory plans live
 * in the process), loads the models, and times one scan of the bench photo
 * (test/artifacts/bench/scene-4000x3000.jpg, made by `npm run bench:vision`) from its bytes. Both
 * ways: straight after loading ("cold"), and after primeModels ("primed", as the app's worker does
 * while the player frames the photo). The rounds alternate. Prints the medians; with --json the
 * last line is {"cold_ms","primed_ms","prime_ms","rounds"}.
 */
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDefaultModels, scanBytes, MODEL_DIR } from '../../src/vision/node.ts';
import { primeModels } from '../../src/vision/prime.ts';

function arg(name: string, def?: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : def;
}
const image = arg('--image', path.join('test', 'artifacts', 'bench', 'scene-4000x3000.jpg'))!;

/** One round in this process: load, maybe prime, one scan. Prints {"prime_ms","scan_ms"}. */
async function child(primed: boolean): Promise<void> {
  const bytes = new Uint8Array(await readFile(image));
  const models = await loadDefaultModels(MODEL_DIR);
  let t = performance.now();
  if (primed) await primeModels(models);
  const prime = performance.now() - t;
  t = performance.now();
  await scanBytes(bytes, models);
  console.log(JSON.stringify({ prime_ms: prime, scan_ms: performance.now() - t }));
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

async function main(): Promise<void> {
  const mode = arg('--child');
  if (mode) return child(mode === 'primed');
  if (!existsSync(image)) throw new Error(`${image} is missing: run npm run bench:vision first, or pass --image FILE`);
  const rounds = Math.max(1, Number(arg('--rounds', '3')));
  const self = fileURLToPath(import.meta.url);
  const run = (m: 'cold' | 'primed') =>
    JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', self, '--child', m, '--image', image], { encoding: 'utf8' }).trim().split('\n').pop()!) as { prime_ms: number; scan_ms: number };
  const cold: number[] = [], primed: number[] = [], prime: number[] = [];
  for (let r = 0; r < rounds; r++) {
    cold.push(run('cold').scan_ms);
    const p = run('primed');
    primed.push(p.scan_ms);
    prime.push(p.prime_ms);
  }
  const lines = [
    `bench:first ${image}, ${rounds} rounds (a fresh process each)`,
    `first scan after loading: ${median(cold).toFixed(0)} ms (${cold.map((v) => v.toFixed(0)).join(', ')})`,
    `first scan after priming: ${median(primed).toFixed(0)} ms (${primed.map((v) => v.toFixed(0)).join(', ')}); priming took ${median(prime).toFixed(0)} ms`,
  ];
  if (process.argv.includes('--json')) {
    for (const l of lines) console.error(l);
    console.log(JSON.stringify({ cold_ms: +median(cold).toFixed(1), primed_ms: +median(primed).toFixed(1), prime_ms: +median(prime).toFixed(1), rounds }));
  } else for (const l of lines) console.log(l);
}

main().catch((e) => {
  console.error(`bench:first: ${(e as Error).message}`);
  process.exit(1);
});
