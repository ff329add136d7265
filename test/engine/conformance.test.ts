import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { scoreLine } from '../../src/cli/batch.ts';
import { sharedDir } from '../../scripts/shared-dir.ts';

// Every line of the public MCR conformance set (../shared/conformance/README.md):
// verdict, error class, total and the full fan list must match; where
// equal_score_alternatives is set, only the total is compared.
const FILE = path.join(sharedDir(), 'conformance', 'mcr-public.jsonl');

describe('MCR conformance (mcr-public.jsonl)', () => {
  it('the conformance file is present next to the repository', () => {
    expect(existsSync(FILE), `missing ${FILE}: clone the project next to shared/, or set MAHJONG_SHARED`).toBe(true);
  });
  const lines = existsSync(FILE) ? readFileSync(FILE, 'utf8').split('\n').filter(Boolean) : [];
  const cases = lines.map((l) => JSON.parse(l));
  it('has all 1552 lines', () => expect(cases.length).toBe(1552));
  const key = (fans: { id: number; count: number; points: number }[]) =>
    fans.map((f) => `${f.id}:${f.points}x${f.count}`).sort();
  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const got = scoreLine(c);
    const e = c.expected;
    expect({ valid: got.valid_win, error: got.error_class, total: got.total }).toEqual({
      valid: e.valid_win, error: e.error_class, total: e.total ?? null,
    });
    if (e.total !== null && e.total !== undefined) expect(got.total_without_flowers).toBe(e.total_without_flowers);
    if (!c.meta?.equal_score_alternatives) expect(key(got.fans)).toEqual(key(e.fans ?? []));
  });
});
