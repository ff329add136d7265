/** The tile-set profile (issue 69): file format, the combination with the base reading, teaching lines. */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TILE_CODES, type ScanResult, type TileCode } from '../../src/vision/types.ts';
import {
  addExamples, base64ToFloats, countsByKind, emptyProfile, floatsToBase64, mergeProfiles, parseProfile, ProfileError, removeExample, serializeProfile, unit, type Profile,
} from '../../src/vision/profile/format.ts';
import { combineReading, kindSimilarities, indexProfile, knnScorer, PROFILE_COMBINE, similarityBonus } from '../../src/vision/profile/combine.ts';
import { applyReadings, profileTile } from '../../src/vision/profile/apply.ts';
import { readProfileFile, readTeachLines, TeachError, writeProfileFile } from '../../src/vision/profile/node.ts';
import { headScorer } from '../../src/vision/profile/head.ts';

const DIM = 16;
const K = TILE_CODES.length;
/** A unit vector along axis `a`, tilted towards axis `b` by `t`. */
function vec(a: number, b = a, t = 0): Float32Array {
  const v = new Float32Array(DIM);
  v[a] = 1 - t;
  v[b] += t;
  return unit(v);
}
const ci = (c: TileCode) => TILE_CODES.indexOf(c);
/** A base reading: `top` at `p`, the rest spread evenly. */
function reading(top: TileCode, p: number, second?: TileCode, q = 0): Float32Array {
  const r = new Float32Array(K).fill((1 - p - q) / (K - (second ? 2 : 1)));
  r[ci(top)] = p;
  if (second) r[ci(second)] = q;
  return r;
}
function profileOf(...ex: [TileCode, Float32Array][]): Profile {
  return addExamples(emptyProfile(DIM), ex.map(([code, embedding], i) => ({ code, embedding, at: 1000 + i })));
}

describe('profile file', () => {
  it('round-trips through its JSON text: codes, embeddings bit for bit, crops, sources', () => {
    const p = profileOf(['4z', vec(1, 2, 0.3)], ['f1', vec(3)], ['4z', vec(1)]);
    p.examples[0]!.crop = 'data:image/jpeg;base64,/9j/AAAA';
    p.examples[1]!.source = 'hand-1.jpg';
    const back = parseProfile(serializeProfile(p));
    expect(back.dim).toBe(DIM);
    expect(back.examples.map((e) => [e.id, e.code, e.crop, e.source, e.at])).toEqual(p.examples.map((e) => [e.id, e.code, e.crop, e.source, e.at]));
    back.examples.forEach((e, i) => expect(Array.from(e.embedding)).toEqual(Array.from(p.examples[i]!.embedding)));
    expect(serializeProfile(back)).toBe(serializeProfile(p));
  });

  it('base64 float32 keeps every number exactly, odd lengths included', () => {
    for (const n of [1, 2, 3, 5, 512]) {
      const v = Float32Array.from({ length: n }, (_, i) => Math.sin(i * 7.1) * 1e3 + 1e-7);
      expect(Array.from(base64ToFloats(floatsToBase64(v)))).toEqual(Array.from(v));
    }
  });

  it.each([
    ['not JSON', '{"format":', 'not-json'],
    ['another JSON file', '{"hand":"123m"}', 'not-a-profile'],
    ['a newer version', JSON.stringify({ format: 'mahjong-tile-set-profile', version: 99, dim: 16, examples: [] }), 'newer-version'],
    ['an unknown code', JSON.stringify({ format: 'mahjong-tile-set-profile', version: 1, dim: 16, examples: [{ id: 'a', code: '0m', embedding: floatsToBase64(vec(1)), at: 0 }] }), 'bad-example'],
    ['an embedding of the wrong length', JSON.stringify({ format: 'mahjong-tile-set-profile', version: 1, dim: 16, examples: [{ id: 'a', code: '1m', embedding: floatsToBase64(new Float32Array(8)), at: 0 }] }), 'dimension-mismatch'],
    ['a crop that is not an image', JSON.stringify({ format: 'mahjong-tile-set-profile', version: 1, dim: 16, examples: [{ id: 'a', code: '1m', embedding: floatsToBase64(vec(1)), crop: 'javascript:alert(1)', at: 0 }] }), 'bad-example'],
  ])('a bad file (%s) is a typed ProfileError, never a half-read profile', (_name, text, code) => {
    let err: unknown;
    try {
      parseProfile(text);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ProfileError);
    expect((err as ProfileError).code).toBe(code);
    expect((err as Error).message.length).toBeGreaterThan(10);
  });

  it('keeps the newest examples of a kind up to the cap; remove, counts and merge', () => {
    let p = emptyProfile(DIM);
    p = addExamples(p, Array.from({ length: 5 }, (_, i) => ({ code: '1m' as TileCode, embedding: vec(i), at: i })), 3);
    expect(p.examples.map((e) => e.at).sort()).toEqual([2, 3, 4]);
    p = addExamples(p, [{ code: '5z', embedding: vec(9), at: 9 }]);
    expect(countsByKind(p)).toEqual([{ code: '1m', count: 3 }, { code: '5z', count: 1 }]);
    const id = p.examples[0]!.id;
    expect(removeExample(p, id).examples).toHaveLength(3);
    const merged = mergeProfiles(p, parseProfile(serializeProfile(p)));
    expect(merged.examples).toHaveLength(4); // the same ids once
    expect(() => mergeProfiles(p, emptyProfile(32))).toThrow(ProfileError);
    // embeddings are stored unit length
    const q = addExamples(emptyProfile(DIM), [{ code: '2m', embedding: Float32Array.from({ length: DIM }, () => 3), at: 0 }]);
    expect(q.examples[0]!.embedding.reduce((s, x) => s + x * x, 0)).toBeCloseTo(1, 5);
  });

  it('is written atomically: a failed write leaves the old file as it was, and no temporary file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'profile-'));
    const file = join(dir, 'P.json');
    expect(await readProfileFile(file)).toBeUndefined();
    await writeProfileFile(file, profileOf(['1m', vec(1)]));
    const before = readFileSync(file, 'utf8');
    expect((await readProfileFile(file))!.examples).toHaveLength(1);
    await expect(writeProfileFile(join(dir, 'missing-dir', 'P.json'), profileOf(['2m', vec(2)]))).rejects.toThrow();
    expect(readFileSync(file, 'utf8')).toBe(before);
    writeFileSync(file, '{"format":"mahjong-tile-set-profile","version":1');
    await expect(readProfileFile(file)).rejects.toBeInstanceOf(ProfileError);
  });
});

describe('combining the profile with the base reading', () => {
  const p = profileOf(['4z', vec(1)], ['4z', vec(1, 2, 0.2)], ['f1', vec(5)]);
  const scorer = knnScorer(p);

  it('no example of a kind: that kind never gains, and a crop like no example keeps its base reading exactly', () => {
    const base = reading('1m', 0.7, '2m', 0.2);
    const bonus = scorer([vec(9), vec(10)]); // far from every example
    expect(Array.from(bonus).every((b) => b === 0)).toBe(true);
    expect(combineReading(base, bonus)).toBe(base);
    // near the 4z examples: only kinds with examples gain
    const near = scorer([vec(1, 9, 0.05), vec(9)]);
    TILE_CODES.forEach((c, k) => { if (c !== '4z' && c !== 'f1') expect(near[k]).toBe(0); });
    expect(near[ci('4z')]).toBeGreaterThan(0);
  });

  it('a profile without examples of the base reading\'s kinds leaves every tile as read', () => {
    const onlyFlowers = knnScorer(profileOf(['f2', vec(7)], ['f3', vec(8)]));
    const t = { code: '3p' as TileCode, score: 0.97, box: [0, 0, 10, 14] as [number, number, number, number] };
    const r = profileTile(t, { probs: reading('3p', 0.97), views: [vec(2), vec(3)] }, onlyFlowers, TILE_CODES);
    expect(r).toEqual({ tile: t, changed: false });
  });

  it('a crop close to a taught kind is read as that kind when the base was unsure (the calligraphic North read as a flower)', () => {
    const t = { code: 'f1' as TileCode, score: 0.55, box: [0, 0, 10, 14] as [number, number, number, number] };
    const r = profileTile(t, { probs: reading('f1', 0.55, '4z', 0.3), views: [vec(1, 3, 0.05), vec(11)] }, scorer, TILE_CODES);
    expect(r.changed).toBe(true);
    expect(r.tile.code).toBe('4z');
    expect(r.tile.alternatives?.[0]?.code).toBe('f1');
    // the similarity bonus grows from tau to weight
    const sims = kindSimilarities(indexProfile(p), [vec(1)]);
    expect(similarityBonus(sims)[ci('4z')]).toBeCloseTo(PROFILE_COMBINE.weight, 5);
  });

  it('applyReadings changes only codes (boxes, rows, groups kept) and notes how many', () => {
    const res: ScanResult = { width: 100, height: 100, tiles: [
      { code: 'f1', score: 0.5, box: [0, 0, 10, 14], row: 0, group: 0 },
      { code: '2m', score: 0.99, box: [10, 0, 10, 14], row: 0, group: 0 },
    ] };
    const out = applyReadings(res, [
      { probs: reading('f1', 0.5, '4z', 0.4), views: [vec(1), vec(12)] },
      { probs: reading('2m', 0.99), views: [vec(13), vec(14)] },
    ], scorer, TILE_CODES);
    expect(out.tiles.map((t) => t.code)).toEqual(['4z', '2m']);
    expect(out.tiles.map((t) => [t.box, t.row, t.group])).toEqual(res.tiles.map((t) => [t.box, t.row, t.group]));
    expect(out.tiles[1]).toBe(res.tiles[1]);
    expect(out.notes?.[0]).toMatch(/1 tile read as the set was taught/);
  });

  it('the tfjs head (the other method measured) also leaves a crop unlike every example as read', async () => {
    const head = await headScorer(p);
    expect(Array.from(head([vec(9), vec(10)])).every((b) => b === 0)).toBe(true);
    const near = head([vec(1), vec(9)]);
    expect(near[ci('4z')]).toBeGreaterThan(near[ci('f1')]!);
  }, 30_000);
});

describe('teaching lines (scan --learn)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'teach-'));
  const photo = join(dir, 'a.jpg');
  writeFileSync(photo, 'x');

  it('reads the scan\'s own --json lines, ignoring their other fields and blank lines', () => {
    const lines = readTeachLines(`${JSON.stringify({ file: photo, width: 10, height: 10, tiles: [{ code: '4z', score: 0.4, box: [1, 2, 3, 4], group: 0, row: 0 }] })}\n\n`);
    expect(lines).toEqual([{ line: 1, file: photo, tiles: [{ code: '4z', box: [1, 2, 3, 4] }] }]);
    // a relative name is found beside the teaching file
    expect(readTeachLines(JSON.stringify({ file: 'a.jpg', tiles: [] }), dir)[0]!.file).toBe(photo);
  });

  it.each([
    ['a missing file', { file: join(dir, 'nope.jpg'), tiles: [] }, /line 2: file not found/],
    ['an unknown code', { file: photo, tiles: [{ code: '4x', box: [1, 2, 3, 4] }] }, /line 2: tile 1: unknown tile code "4x"/],
    ['a box of no size', { file: photo, tiles: [{ code: '4z', box: [1, 2, 0, 4] }] }, /line 2: tile 1: box .* has no size/],
    ['another shape', { file: photo, codes: ['4z'] }, /line 2: expected/],
    ['a scan error line', { file: photo, error: { code: 'not-an-image' } }, /line 2: a scan error line/],
  ])('%s is an error naming its line', (_n, bad, msg) => {
    const text = `${JSON.stringify({ file: photo, tiles: [] })}\n${JSON.stringify(bad)}\n`;
    expect(() => readTeachLines(text)).toThrow(TeachError);
    expect(() => readTeachLines(text)).toThrow(msg);
  });
});
