import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scoreLine } from '../../src/cli/batch.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

function run(args: string[], input = '') {
  const r = spawnSync('npx', ['tsx', 'src/cli/score.ts', ...args], { cwd: root, input, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const HAND = '[123m1][456p1][789s1]222p34s66m5s';

describe('score CLI, --rules fan-pays', () => {
  it('prints the breakdown and the payments', () => {
    const { code, stdout } = run(['--rules', 'fan-pays', HAND, '--seat', 'S', '--discarder', 'E', '--dealer-streak', '2']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Dealer Penalty .*1 x 2\s+2/);
    expect(stdout).toMatch(/Total \(fans\)\s+6/);
    expect(stdout).toMatch(/Win\s+E -6\s+S \+6\s+W 0\s+N 0/);
  });

  it('--json gives the full result, secret kongs apart', () => {
    const { code, stdout } = run(['--rules', 'fan-pays', '[2222p][123m1][456p1]789s34s66m5s', '--seat', 'S', '--self-drawn', '--secret-kong', 'N', '--fan-value', '2', '--json']);
    expect(code).toBe(0);
    const r = JSON.parse(stdout);
    expect(r.ruleset).toBe('fan-pays');
    expect(r.total).toBe(7);
    expect(r.payments).toEqual({ E: -14, S: 42, W: -14, N: -14 });
    expect(r.secretKongPayments).toEqual({ E: -4, S: 4, W: -4, N: 4 });
  });

  it('bad input exits 2 with the typed message', () => {
    const { code, stderr } = run(['--rules', 'fan-pays', '[123p1][345s2][999s3]78mEE6m']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/17 tiles/);
  });

  it('--json: notation that cannot be read still gives one JSON object with the typed code, in both rulesets', () => {
    for (const rules of ['mcr', 'fan-pays']) {
      const { code, stdout, stderr } = run(['--rules', rules, '111m555x999s222s444m77p', '--json']);
      expect(code).toBe(2);
      expect(stderr).toMatch(/unexpected character "x"/);
      const r = JSON.parse(stdout);
      expect(r).toEqual({ hand: '111m555x999s222s444m77p', validWin: false, error: { code: 'MALFORMED_NOTATION', message: expect.stringMatching(/"x"/), position: 7 } });
    }
  });

  it('--batch: the flag applies to every line, a line\'s "rules" wins', () => {
    const lines = [
      JSON.stringify({ id: 'a', hand: HAND, context: { seat_wind: 'S', discarder: 'W' } }),
      JSON.stringify({ id: 'b', rules: 'mcr', hand: '[123p1][345s2][999s3]78mEE6m', context: { discarder: 'S' } }),
    ].join('\n');
    const { code, stdout } = run(['--rules', 'fan-pays', '--batch'], lines);
    expect(code).toBe(0);
    const [a, b] = stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(a).toMatchObject({ id: 'a', rules: 'fan-pays', valid_win: true, total: 4, payments: { E: 0, S: 4, W: -4, N: 0 } });
    expect(b).toMatchObject({ id: 'b', error_class: 'BELOW_MINIMUM' });
    expect(b.rules).toBeUndefined();
  });

  it('Fan Pays flags are refused under MCR', () => {
    const { code, stderr } = run([HAND, '--dealer', 'S']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--dealer is a Fan Pays option/);
  });
});

describe('batch lines', () => {
  it('read the card\'s context fields', () => {
    const out = scoreLine({
      id: 1, rules: 'fan-pays', hand: '[123m1][456p1][789s1]222p34s66m5s',
      context: { seat_wind: 'S', self_drawn: true, flower_wall_win: true, flowers_by_seat: { S: [1, 2, 3, 4], N: [5] }, fan_value: 3 },
    });
    expect(out).toMatchObject({ valid_win: true, total: 14 });
    expect(out.fans.map((f) => f.id)).toEqual([1, 37, 38, 39, 41]);
    expect(out.payments).toEqual({ E: -42, S: 126, W: -42, N: -42 });
  });
  it('a bad Fan Pays context is a typed error line', () => {
    expect(scoreLine({ rules: 'fan-pays', hand: '[123m1][456p1][789s1]222p34s66m5s', context: { dealer_streak: -1 } })).toMatchObject({ error_class: 'INVALID_CONTEXT' });
    expect(scoreLine({ rules: 'riichi', hand: '1m' })).toMatchObject({ error_class: 'INVALID_CONTEXT' });
  });
});
