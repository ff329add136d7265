// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { foundMessage, leftOutFromScan, tilesFromScan } from '../../src/app/capture/CaptureView.tsx';
import en from '../../src/app/i18n/locales/en.json';
import pl from '../../src/app/i18n/locales/pl.json';
import sv from '../../src/app/i18n/locales/sv.json';
import zh from '../../src/app/i18n/locales/zh.json';
import type { ScanResult } from '../../src/vision/types.ts';

const scan: ScanResult = {
  width: 800,
  height: 600,
  tiles: [
    { code: '1m', score: 0.98, box: [10, 10, 40, 60], row: 0, group: 0 },
    { code: '1m', score: 0.97, box: [52, 10, 40, 60], row: 0, group: 0 },
    { code: '1m', score: 0.51, box: [94, 10, 60, 40], row: 0, group: 0, sideways: true, alternatives: [{ code: '2m', score: 0.3 }], handCheck: true },
    { code: '5p', score: 0.99, box: [200, 10, 40, 60], row: 0, group: 1 },
  ],
  groups: [{ tiles: [0, 1, 2], kind: 'meld', reason: 'sideways tile' }, { tiles: [3], kind: 'tiles', reason: 'rest' }],
  leftOut: [{ code: '5z', score: 0.3, box: [600, 500, 40, 60] }],
};

describe('scan result to review work', () => {
  it('keeps codes, boxes, scores, next guesses and sideways tiles; groups only for melds and kongs', () => {
    const tiles = tilesFromScan(scan);
    expect(tiles.map((t) => t.code)).toEqual(['1m', '1m', '1m', '5p']);
    expect(tiles[2]).toEqual({ code: '1m', box: [94, 10, 60, 40], score: 0.51, sideways: true, alternatives: ['2m'], group: 0 });
    expect(tiles[3]!.group).toBeUndefined();
  });
  it('gives a tile read as a flower how sure recognition is that it is some flower: its score and its next guesses among the eight', () => {
    const flowers: ScanResult = {
      width: 800,
      height: 600,
      tiles: [
        { code: 'f2', score: 0.45, box: [10, 10, 40, 60], alternatives: [{ code: 'f3', score: 0.3 }, { code: '2m', score: 0.1 }] },
        { code: 'f5', score: 0.7, box: [60, 10, 40, 60], alternatives: [{ code: 'f6', score: 0.2 }, { code: 'f7', score: 0.1 }] },
        { code: 'f1', score: 0.99, box: [110, 10, 40, 60] },
        { code: '1s', score: 0.4, box: [160, 10, 40, 60], alternatives: [{ code: 'f2', score: 0.3 }] },
      ],
    };
    const tiles = tilesFromScan(flowers);
    expect(tiles[0]!.flowerScore).toBeCloseTo(0.75, 10);
    expect(tiles[1]!.flowerScore).toBe(1);
    expect(tiles[2]!.flowerScore).toBe(0.99);
    // not read as a flower: no such score
    expect(tiles[3]!.flowerScore).toBeUndefined();
    expect(tilesFromScan(scan).every((t) => t.flowerScore === undefined)).toBe(true);
  });

  it('keeps the detections recognition left out, as copies', () => {
    const left = leftOutFromScan(scan);
    expect(left).toEqual([{ code: '5z', score: 0.3, box: [600, 500, 40, 60] }]);
    expect(left[0]!.box).not.toBe(scan.leftOut![0]!.box);
    expect(leftOutFromScan({ ...scan, leftOut: undefined })).toEqual([]);
  });
});

describe('what the player is told after a scan', () => {
  it('says how many tiles were found, and that a photo taken from the side of the table or from across it was read turned', () => {
    expect(foundMessage(scan, 4)).toEqual({ key: 'status.found', values: { n: 4 } });
    expect(foundMessage({ ...scan, turned: 1 }, 4)).toEqual({ key: 'status.foundSide', values: { n: 4 } });
    expect(foundMessage({ ...scan, turned: 3 }, 4)).toEqual({ key: 'status.foundSide', values: { n: 4 } });
    expect(foundMessage({ ...scan, turned: 2 }, 4)).toEqual({ key: 'status.foundAcross', values: { n: 4 } });
    expect(foundMessage({ width: 800, height: 600, tiles: [], reason: 'no tiles found in the photo' }, 0)).toEqual({ key: 'err.noTiles' });
  });
  it('has those messages in every language, with the count', () => {
    for (const locale of [en, pl, sv, zh]) {
      for (const key of ['found', 'foundSide', 'foundAcross'] as const) expect(locale.status[key]).toContain('{{n}}');
      expect(locale.status.foundSide).not.toBe(locale.status.foundAcross);
    }
  });
});
