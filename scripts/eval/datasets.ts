/**
 * The held-out synthetic sets, made when missing: eval:vision reads `--data training-data/NAME`
 * (or `--tiles`); when NAME has no manifest.json and scripts/train/recipes/datasets.json names it,
 * the generator makes it first with that seeded command, so a fresh clone measures the same
 * figures as the machine that wrote them (same seed and options, byte-identical files).
 */
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DATASETS = path.join(ROOT, 'scripts', 'train', 'recipes', 'datasets.json');

interface SetSpec { args: string; kind: 'scenes' | 'tiles'; tool?: 'embed'; eval?: boolean }

/** The generator command (tool and arguments) that makes set `name` at `dir`, or null when no recipe names it. */
export function generatorCommand(name: string, dir: string): { tool: string; args: string[]; from?: string } | null {
  const sets = (JSON.parse(readFileSync(DATASETS, 'utf8')) as { sets: Record<string, SetSpec> }).sets;
  const spec = sets[name];
  if (!spec) return null;
  const parent = path.dirname(dir);
  const args = spec.args.split(/\s+/).filter(Boolean).map((a) => (a.startsWith('training-data/') ? path.join(parent, a.slice('training-data/'.length)) : a));
  const tool = spec.tool === 'embed' ? 'scripts/synth/embed.ts' : 'scripts/synth/generate.ts';
  const from = spec.tool === 'embed' ? args[args.indexOf('--from') + 1] : undefined;
  return { tool, args: ['--out', dir, ...args, ...(spec.tool === 'embed' ? [] : ['--workers', '2'])], from };
}

/** Makes the set at `dir` if it is missing and a recipe names it; returns whether it exists now. */
export function ensureSet(dir: string, log: (line: string) => void = (l) => console.error(l)): boolean {
  if (existsSync(path.join(dir, 'manifest.json'))) return true;
  const cmd = generatorCommand(path.basename(path.resolve(dir)), path.resolve(dir));
  if (!cmd) return existsSync(dir);
  if (cmd.from && !ensureSet(cmd.from, log)) return false;
  log(`eval:vision: ${dir} is missing; making it (seeded): npx tsx ${cmd.tool} ${cmd.args.join(' ')}`);
  const r = spawnSync('npx', ['tsx', cmd.tool, ...cmd.args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  return r.status === 0 && existsSync(path.join(dir, 'manifest.json'));
}
