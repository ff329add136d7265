/** eval:vision makes a missing held-out set with its seeded recipe command (issue 67). */
import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSet, generatorCommand } from '../../scripts/eval/datasets.ts';

describe('held-out sets made when missing', () => {
  it('takes the seeded generator command of scripts/train/recipes/datasets.json, into the folder asked for', () => {
    expect(generatorCommand('val-holdout', '/data/val-holdout')).toEqual({ tool: 'scripts/synth/generate.ts', args: ['--out', '/data/val-holdout', '--count', '300', '--seed', '2', '--holdout', '--workers', '2'], from: undefined });
    // an embedded set is made from its source set, beside it
    expect(generatorCommand('embed-holdout', '/data/embed-holdout')).toMatchObject({ tool: 'scripts/synth/embed.ts', from: '/data/val-holdout' });
    expect(generatorCommand('my-photos', '/data/my-photos')).toBeNull();
  });

  it('leaves a folder no recipe names alone (it is missing, and says so by returning false)', () => {
    const lines: string[] = [];
    expect(ensureSet(join(mkdtempSync(join(tmpdir(), 'sets-')), 'my-photos'), (l) => lines.push(l))).toBe(false);
    expect(lines).toEqual([]);
  });
});
