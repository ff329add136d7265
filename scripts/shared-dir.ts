/**
 * Where the read-only `shared/` folder (rule documents, the conformance set, the tile
 * artwork) is: `$MAHJONG_SHARED` when set; else `shared/` beside the repository; else,
 * for a scratch clone of a local checkout (`git clone . /tmp/x`), `shared/` beside the
 * checkout it was cloned from. When none exists, the path beside the repository is
 * returned, so that errors name the expected place.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function sharedDir(repoRoot = REPO_ROOT): string {
  if (process.env.MAHJONG_SHARED) return path.resolve(process.env.MAHJONG_SHARED);
  const beside = path.resolve(repoRoot, '..', 'shared');
  if (existsSync(beside)) return beside;
  try {
    const origin = execFileSync('git', ['-C', repoRoot, 'config', '--get', 'remote.origin.url'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const local = origin.startsWith('file://') ? fileURLToPath(origin) : origin;
    if (path.isAbsolute(local)) {
      const candidate = path.resolve(local, '..', 'shared');
      if (existsSync(candidate)) return candidate;
    }
  } catch {
    // not a git checkout, or no origin: fall through
  }
  return beside;
}
