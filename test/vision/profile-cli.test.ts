/** The scan CLI's tile-set profile contract (issue 69): --learn TEACH.jsonl --profile P.json, and
 * --json --profile P.json FILE..., on our own synthetic fixture scenes. */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseProfile } from '../../src/vision/profile/format.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const scene = (n: string) => `test/fixtures/scenes/${n}`;

function run(args: string[]) {
  const r = spawnSync('npx', ['tsx', 'src/cli/scan.ts', ...args], { cwd: root, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('scan --learn / --profile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'profile-cli-'));
  const profile = join(dir, 'P.json');

  it('teaches a profile from the scan\'s own --json lines (codes corrected), prints one summary line, and updates it', () => {
    const scanned = run(['--json', scene('holdout-0.jpg'), scene('holdout-1.jpg')]);
    expect(scanned.code).toBe(0);
    const lines = scanned.stdout.trim().split('\n');
    // the player's correction: the labels' codes, in the scan's reading order (the same here)
    const label = JSON.parse(readFileSync(join(root, scene('holdout-0.json')), 'utf8')) as { tiles: { code: string }[] };
    const first = JSON.parse(lines[0]!) as { tiles: { code: string }[] };
    first.tiles.forEach((t, i) => { t.code = label.tiles[i]!.code; });
    const teach = join(dir, 'teach.jsonl');
    writeFileSync(teach, `${JSON.stringify(first)}\n`);
    const r = run(['--learn', teach, '--profile', profile]);
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout.trim().split('\n');
    expect(out).toHaveLength(1);
    const summary = JSON.parse(out[0]!);
    expect(Object.keys(summary).sort()).toEqual(['examples', 'kinds', 'profile']);
    expect(summary).toEqual({ profile, examples: first.tiles.length, kinds: new Set(first.tiles.map((t) => t.code)).size });
    const p = parseProfile(readFileSync(profile, 'utf8'));
    expect(p.dim).toBe(512);
    expect(p.examples).toHaveLength(first.tiles.length);
    // a second teaching updates it
    writeFileSync(teach, `${lines[1]}\n`);
    const again = JSON.parse(run(['--learn', teach, '--profile', profile]).stdout);
    expect(again.examples).toBe(first.tiles.length + (JSON.parse(lines[1]!) as { tiles: unknown[] }).tiles.length);
  });

  it('scans with the profile: the taught set reads as before or better, the output keeps its shape', () => {
    const plain = run(['--json', scene('holdout-0.jpg')]);
    const withProfile = run(['--json', '--profile', profile, scene('holdout-0.jpg')]);
    expect(withProfile.code, withProfile.stderr).toBe(0);
    const a = JSON.parse(plain.stdout), b = JSON.parse(withProfile.stdout);
    const label = JSON.parse(readFileSync(join(root, scene('holdout-0.json')), 'utf8')) as { tiles: { code: string }[] };
    expect(b.tiles.map((t: { code: string }) => t.code)).toEqual(label.tiles.map((t) => t.code));
    expect(b.tiles.map((t: { box: number[] }) => t.box)).toEqual(a.tiles.map((t: { box: number[] }) => t.box));
    expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
  });

  it('a line naming a missing file or an unknown code is an error naming the line, and the profile is left as it was', () => {
    const before = readFileSync(profile, 'utf8');
    const teach = join(dir, 'bad.jsonl');
    const good = JSON.stringify({ file: scene('holdout-0.jpg'), tiles: [{ code: '1m', box: [223.3, 125.3, 33.3, 52.9] }] });
    writeFileSync(teach, `${good}\n${JSON.stringify({ file: 'test/fixtures/scenes/nope.jpg', tiles: [] })}\n`);
    let r = run(['--learn', teach, '--profile', profile]);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/line 2: file not found: test\/fixtures\/scenes\/nope\.jpg/);
    writeFileSync(teach, `${good}\n\n${JSON.stringify({ file: scene('holdout-0.jpg'), tiles: [{ code: 'North', box: [1, 1, 30, 40] }] })}\n`);
    r = run(['--learn', teach, '--profile', profile]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/line 3: tile 1: unknown tile code "North"/);
    expect(readFileSync(profile, 'utf8')).toBe(before);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    // a new profile is not created by a failed teaching
    const fresh = join(dir, 'fresh.json');
    run(['--learn', teach, '--profile', fresh]);
    expect(existsSync(fresh)).toBe(false);
  });

  it('a missing or damaged profile is a clear error; --learn needs --profile', () => {
    let r = run(['--json', '--profile', join(dir, 'none.json'), scene('holdout-0.jpg')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no tile-set profile at/);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"format":"mahjong-tile-set-profile","version":1,"dim":512,"examples":[{"id":"a"}]}');
    r = run(['--json', '--profile', bad, scene('holdout-0.jpg')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/damaged/);
    r = run(['--learn', join(dir, 'teach.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--learn needs --profile/);
  });
});
