// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import fc from 'fast-check';
import { ReviewView } from '../../src/app/review/ReviewView.tsx';
import { FRAME_WHOLE_ABOVE, framePoint, frameStyle, labelPlaces, tileFrame } from '../../src/app/review/frame.ts';
import { mount, tiles, work } from './helpers.tsx';

afterEach(cleanup);

const PHOTO = { width: 4000, height: 3000 };
/** A row of n tiles 100x140 from (x, y). */
const row = (n: number, x: number, y: number) => Array.from({ length: n }, (_, i) => [x + i * 102, y, 100, 140] as [number, number, number, number]);

describe('tileFrame', () => {
  it('zooms to a hand that fills a small part of the photo, with three quarters of a tile round it', () => {
    const f = tileFrame(PHOTO, row(14, 1000, 1500));
    expect(f).toEqual({ x: 1000 - 105, y: 1500 - 105, width: 13 * 102 + 100 + 210, height: 140 + 210 });
  });

  it('keeps detections left out near the tiles in view, not those far off', () => {
    const tiles14 = row(14, 1000, 1500);
    const near = [1000 + 14 * 102 + 60, 1500, 100, 140] as const;
    const far = [3800, 100, 100, 140] as const;
    const f = tileFrame(PHOTO, tiles14, [near, far]);
    expect(f.x + f.width).toBeGreaterThanOrEqual(near[0] + near[2]);
    expect(f.y).toBe(1500 - 105);
    expect(tileFrame(PHOTO, tiles14, [far])).toEqual(tileFrame(PHOTO, tiles14));
  });

  it('shows the whole photo when the tiles fill most of it, and when there are none', () => {
    expect(tileFrame(PHOTO, [[100, 100, 3800, 2800]])).toEqual({ x: 0, y: 0, width: 4000, height: 3000 });
    expect(tileFrame(PHOTO, [])).toEqual({ x: 0, y: 0, width: 4000, height: 3000 });
  });

  it('always holds every box, inside the photo', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 3900 }), fc.integer({ min: 0, max: 2800 }), fc.integer({ min: 20, max: 100 }), fc.integer({ min: 30, max: 200 })), { minLength: 1, maxLength: 30 }), (bs) => {
      const f = tileFrame(PHOTO, bs);
      expect(f.x).toBeGreaterThanOrEqual(0);
      expect(f.y).toBeGreaterThanOrEqual(0);
      expect(f.x + f.width).toBeLessThanOrEqual(PHOTO.width + 1e-9);
      expect(f.y + f.height).toBeLessThanOrEqual(PHOTO.height + 1e-9);
      for (const [x, y, w, h] of bs) {
        expect(x).toBeGreaterThanOrEqual(f.x);
        expect(y).toBeGreaterThanOrEqual(f.y);
        expect(Math.min(x + w, PHOTO.width)).toBeLessThanOrEqual(f.x + f.width + 1e-9);
        expect(Math.min(y + h, PHOTO.height)).toBeLessThanOrEqual(f.y + f.height + 1e-9);
      }
      // zoomed only when that shows a region clearly smaller than the photo
      if (f.width < PHOTO.width || f.height < PHOTO.height) expect(f.width * f.height).toBeLessThan(FRAME_WHOLE_ABOVE * PHOTO.width * PHOTO.height);
    }));
  });

  it('maps a tap on the frame back to the photo pixel under it', () => {
    const f = tileFrame(PHOTO, row(14, 1000, 1500));
    const box = [1204, 1500, 100, 140] as const;
    const s = frameStyle(box, f);
    const u = (parseFloat(s.left) + parseFloat(s.width) / 2) / 100, v = (parseFloat(s.top) + parseFloat(s.height) / 2) / 100;
    const [x, y] = framePoint(f, u, v);
    expect(x).toBeCloseTo(1254, 6);
    expect(y).toBeCloseTo(1570, 6);
  });
});

describe('labelPlaces, a row photographed at an angle', () => {
  it('keeps the readings above the tiles when neighbours only touch the corners of that space', () => {
    // each tile 20 % of its height lower than the one before
    const slanted = Array.from({ length: 6 }, (_, i) => [i * 102, 500 + i * 28, 100, 140] as [number, number, number, number]);
    expect(labelPlaces(slanted)).toEqual(['above', 'above', 'above', 'above', 'above', 'above']);
  });
});

describe('labelPlaces', () => {
  it('puts a reading above its tile, below it when a row lies above, and inside when rows lie both ways', () => {
    const one = labelPlaces(row(3, 0, 500));
    expect(one).toEqual(['above', 'above', 'above']);
    // two rows, flush: the top row's readings go above, the bottom row's below
    expect(labelPlaces([...row(2, 0, 500), ...row(2, 0, 640)])).toEqual(['above', 'above', 'below', 'below']);
    // three rows: the middle row has no room either way
    expect(labelPlaces([...row(1, 0, 500), ...row(1, 0, 640), ...row(1, 0, 780)])).toEqual(['above', 'inside', 'below']);
  });
});

describe('the review photo', () => {
  it('zooms by the tiles, not by the detections left out as no tile', () => {
    const ts = tiles('1m 2m 3m').map((t, i) => ({ ...t, box: row(3, 1000, 1500)[i]!, score: 0.99 }));
    const leftOut = [{ code: 'back', score: 0.3, box: [3800, 100, 100, 140] as [number, number, number, number] }];
    mount(<ReviewView onNext={() => undefined} />, work({ tiles: ts, leftOut, source: 'photo', photo: { key: 'k', ...PHOTO, name: 'x.jpg' } }));
    expect(screen.getByRole('group', { name: 'Photo with the recognised tiles' }).getAttribute('data-frame')).toBe('895,1395,514,350');
    expect(screen.getByRole('button', { name: 'Show the whole photo' })).toBeTruthy();
    expect(screen.getByText(/left out as not a tile/).textContent).toMatch(/One of them lies outside this view \(Show the whole photo\)\.$/);
  });

  it('shows the part of the photo round the tiles, and the whole photo on request', async () => {
    const user = userEvent.setup();
    const ts = tiles('1m 2m 3m').map((t, i) => ({ ...t, box: row(3, 1000, 1500)[i]!, score: 0.99 }));
    mount(<ReviewView onNext={() => undefined} />, work({ tiles: ts, source: 'photo', photo: { key: 'k', ...PHOTO, name: 'x.jpg' } }));
    const wrap = screen.getByRole('group', { name: 'Photo with the recognised tiles' });
    expect(wrap.getAttribute('data-frame')).toBe('895,1395,514,350');
    expect((wrap.querySelector('.tile-box') as HTMLElement).style.left).toBe(`${(105 / 514) * 100}%`);
    await user.click(screen.getByRole('button', { name: 'Show the whole photo' }));
    expect(wrap.getAttribute('data-frame')).toBe('0,0,4000,3000');
    expect((wrap.querySelector('.tile-box') as HTMLElement).style.left).toBe('25%');
    await user.click(screen.getByRole('button', { name: 'Zoom in on the tiles' }));
    expect(wrap.getAttribute('data-frame')).toBe('895,1395,514,350');
  });
});
