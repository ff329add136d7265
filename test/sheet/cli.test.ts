import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const example = readFileSync(new URL('./example.json', import.meta.url), 'utf8');

function run(args: string[], input: string) {
  const r = spawnSync('npx', ['tsx', 'src/cli/sheet.ts', ...args], { cwd: root, input, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('sheet CLI', () => {
  it('prints the 003 example and ends with the JSON line', () => {
    const { code, stdout } = run(['--json'], example);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(JSON.parse(lines.at(-1) as string)).toEqual({
      totals: [22, -24, -64, 66],
      table_points: [2, 1, 0, 4],
      hands: [[46, -8, -8, -30], [0, 0, 0, 0], [-18, -18, -18, 54], [-6, 2, -38, 42]],
    });
    expect(stdout).toMatch(/Anders\s+Bente\s+Claus\s+Dorte/);
    expect(stdout).toMatch(/\+10 \/ -16\s+\+10 \/ -8\s+-30 \/ -8\s+\+10 \/ \+32/);
    expect(stdout).toMatch(/total\s+22\s+-24\s+-64\s+66/);
  });

  it('without --json prints only the readable sheet', () => {
    const { code, stdout } = run([], example);
    expect(code).toBe(0);
    expect(stdout).not.toContain('{');
    expect(stdout).toMatch(/table pts\s+2\s+1\s+0\s+4/);
  });

  it.each([
    { record: { players: ['a', 'b', 'c', 'd'], hands: [{ draw: true }, { winner: 'a', discarder: 'a', points: 8 }] }, hand: 2, field: 'discarder' },
    { record: { players: ['a', 'b', 'c', 'd'], hands: [{ winner: 'x', self_drawn: true, points: 8 }] }, hand: 1, field: 'winner' },
    { record: { players: ['a', 'b', 'c', 'd'], hands: [{ winner: 'a', self_drawn: true, points: 4 }] }, hand: 1, field: 'points' },
    { record: { players: ['a', 'b', 'c', 'd'], hands: Array.from({ length: 17 }, () => ({ draw: true })) }, hand: 17, field: 'hands' },
  ])('refuses a bad record with one line naming hand $hand and field $field', ({ record, hand, field }) => {
    const { code, stdout, stderr } = run(['--json'], JSON.stringify(record));
    expect(code).not.toBe(0);
    expect(stdout).toBe('');
    const lines = stderr.trim().split('\n').filter((l) => !l.startsWith('npm warn'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`hand ${hand}`);
    expect(lines[0]).toContain(`"${field}"`);
  });
});
