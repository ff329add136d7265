// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ReviewView } from '../../src/app/review/ReviewView.tsx';
import { checkTiles } from '../../src/app/model/checks.ts';
import { mount, tiles, work } from './helpers.tsx';
import { resetRulesetChoice } from '../../src/app/ruleset/active.ts';

afterEach(cleanup);

const HAND13 = '1m 2m 3m 4m 5m 6m 7m 8m 9m 5p 5p 2s 3s';

describe('ReviewView', () => {
  it('says what is wrong with the tile count and blocks Next', () => {
    mount(<ReviewView onNext={() => undefined} />, work({ codes: HAND13 }));
    expect(screen.getByText('13 tiles: a finished hand has 14, plus one for each kong. 1 missing.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('adds a tile from the keyboard, then the count is right', async () => {
    const user = userEvent.setup();
    const onNext = vi.fn();
    const { present } = mount(<ReviewView onNext={onNext} />, work({ codes: HAND13 }));
    await user.click(within(screen.getByRole('group', { name: 'Tile keyboard' })).getByRole('button', { name: '4 Bamboo' }));
    expect(present().tiles.map((t) => t.code).at(-1)).toBe('4s');
    expect(screen.getByText('The tile count is right.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(onNext).toHaveBeenCalled();
  });

  it('corrects a tile from the picker, and undo/redo walk the history', async () => {
    const user = userEvent.setup();
    const { store, present } = mount(<ReviewView onNext={() => undefined} />, work({ codes: `${HAND13} 4s` }));
    await user.click(screen.getByRole('button', { name: 'Tile 1: 1 Characters' }));
    const dialog = screen.getByRole('dialog', { name: 'Change tile 1 (1 Characters)' });
    expect(within(dialog).getByRole('button', { name: '1 Characters' }).getAttribute('aria-pressed')).toBe('true');
    await user.click(within(dialog).getByRole('button', { name: 'Red Dragon' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(present().tiles[0].code).toBe('7z');
    expect(screen.getByRole('button', { name: 'Tile 1: Red Dragon' })).toBeTruthy();
    store.undo();
    expect(present().tiles[0].code).toBe('1m');
    store.redo();
    expect(present().tiles[0].code).toBe('7z');
  });

  it('removes a false tile and closes the picker with Escape', async () => {
    const user = userEvent.setup();
    const { present } = mount(<ReviewView onNext={() => undefined} />, work({ codes: `${HAND13} 4s 9p` }));
    expect(screen.getByText(/15 tiles need 1 kong/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Tile 15: 9 Dots' }));
    await user.click(screen.getByRole('button', { name: 'Remove this tile' }));
    expect(present().tiles).toHaveLength(14);
    await user.click(screen.getByRole('button', { name: 'Tile 1: 1 Characters' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows recognition boxes over the photo, marks unsure ones, and names every tile', () => {
    const ts = tiles('1m 2m').map((t, i) => ({ ...t, box: [10 + i * 60, 10, 50, 70] as [number, number, number, number], score: i ? 0.3 : 0.99 }));
    mount(<ReviewView onNext={() => undefined} />, work({ tiles: ts, source: 'photo', photo: { key: 'k', width: 200, height: 100, name: 'x.jpg' } }));
    const photo = screen.getByRole('group', { name: 'Photo with the recognised tiles' });
    const boxes = within(photo).getAllByRole('button');
    expect(boxes).toHaveLength(2);
    expect(boxes[1].getAttribute('aria-label')).toBe('Tile 2: 2 Characters, 30% sure, please check');
    expect(boxes[0].style.left).toBe('5%');
    expect(screen.getByRole('button', { name: 'Add tile' })).toBeTruthy();
  });

  it('under MCR marks a flower only when it may not be a flower at all; under Fan Pays when which flower is unclear', () => {
    const photo = { key: 'k', width: 400, height: 100, name: 'x.jpg' };
    const ts = tiles('f2 f6 f3 1m').map((t, i) => ({
      ...t,
      box: [10 + i * 60, 10, 50, 70] as [number, number, number, number],
      // f2: surely some flower, which one unclear; f6: maybe not a flower; f3: sure; 1m: unsure
      ...[{ score: 0.45, flowerScore: 0.95 }, { score: 0.4, flowerScore: 0.5 }, { score: 0.97, flowerScore: 0.99 }, { score: 0.3 }][i],
    }));
    const marked = () => within(screen.getByRole('group', { name: 'Photo with the recognised tiles' })).getAllByRole('button').map((b) => b.classList.contains('unsure'));
    try {
      mount(<ReviewView onNext={() => undefined} />, work({ tiles: ts, source: 'photo', photo }));
      expect(marked()).toEqual([false, true, false, true]);
      const photoBox = (name: string) => within(screen.getByRole('group', { name: 'Photo with the recognised tiles' })).getByRole('button', { name });
      expect(photoBox('Tile 1: Orchid (flower 2)')).toBeTruthy();
      expect(photoBox('Tile 2: Summer (season 2), 50% sure, please check')).toBeTruthy();
      expect(screen.getByText('A tile that is surely a flower or season is not marked when only which one is unclear: MCR scores them all the same. Under Fan Pays it is marked.')).toBeTruthy();
      cleanup();
      resetRulesetChoice({ global: 'fan-pays', table: null });
      mount(<ReviewView onNext={() => undefined} />, work({ tiles: ts, source: 'photo', photo }));
      expect(marked()).toEqual([true, true, false, true]);
      expect(within(screen.getByRole('group', { name: 'Photo with the recognised tiles' })).getByRole('button', { name: 'Tile 1: Orchid (flower 2), 45% sure, please check' })).toBeTruthy();
      expect(screen.queryByText(/surely a flower or season/)).toBeNull();
    } finally {
      resetRulesetChoice({ global: 'mcr', table: null });
    }
  });

  it("offers recognition's next guesses first when correcting a tile", async () => {
    const user = userEvent.setup();
    const ts = tiles(`${HAND13} 4s`).map((t, i) => (i === 1 ? { ...t, score: 0.41, alternatives: ['3m', '5m'] } : t));
    const { present } = mount(<ReviewView onNext={() => undefined} />, work({ tiles: ts }));
    await user.click(screen.getByRole('button', { name: 'Tile 2: 2 Characters, 41% sure, please check' }));
    const dialog = screen.getByRole('dialog', { name: 'Change tile 2 (2 Characters)' });
    const likely = within(dialog).getByRole('group', { name: 'Likely' });
    expect(within(likely).getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual(['3 Characters', '5 Characters']);
    await user.click(within(likely).getByRole('button', { name: '3 Characters' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(present().tiles[1].code).toBe('3m');
    // a tile without guesses (typed in) shows only the full picker
    await user.click(screen.getByRole('button', { name: 'Tile 1: 1 Characters' }));
    expect(within(screen.getByRole('dialog')).queryByRole('group', { name: 'Likely' })).toBeNull();
  });

  it('loads pasted notation with its declared sets, and reports a bad character with its position', async () => {
    const user = userEvent.setup();
    const { present } = mount(<ReviewView onNext={() => undefined} />, work({}));
    await user.type(screen.getByLabelText('Type or paste a hand'), '123x');
    await user.click(screen.getByRole('button', { name: 'Use this hand' }));
    expect(screen.getByRole('alert').textContent).toMatch(/character \d/);
    await user.clear(screen.getByLabelText('Type or paste a hand'));
    await user.click(screen.getByLabelText('Type or paste a hand'));
    await user.paste('[123p1][345s2][999s3]78mEE6m');
    await user.click(screen.getByRole('button', { name: 'Use this hand' }));
    const w = present();
    expect(w.tiles).toHaveLength(14);
    expect(w.sets?.filter((s) => s.declared)).toHaveLength(3);
    expect(w.tiles.find((t) => t.uid === w.winningUid)?.code).toBe('6m');
    // the whole grouping is stored, the typed melds with their claim digits, the concealed tiles read by the engine
    expect(w.sets!.flatMap((s) => s.uids).sort()).toEqual(w.tiles.map((t) => t.uid).sort());
    expect(w.sets!.map((s) => [s.kind, s.declared, s.claim])).toEqual([
      ['chow', true, { from: 'left', index: 0 }], ['chow', true, { from: 'left', index: 1 }], ['pung', true, { from: 'right' }],
      ['chow', false, undefined], ['pair', false, undefined],
    ]);
  });
});

describe('checkTiles', () => {
  it('flags five of a kind, repeated flowers and an odd face-down tile', () => {
    const keys = checkTiles(tiles('1m 1m 1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m 9m f1 f1 back')).map((i) => i.key);
    expect(keys).toEqual(expect.arrayContaining(['check.fiveOfAKind', 'check.flowerTwice', 'check.oddBacks']));
  });
  it('accepts 16 tiles with two kongs, one of them concealed (two face-down tiles)', () => {
    expect(checkTiles(tiles('1z 1z 1z 1z back 2z 2z back 1m 2m 3m 4m 5m 6m 9p 9p'))).toEqual([]);
  });

  it('shows the detections recognition left out, dashed, and adds one back when tapped', async () => {
    const user = userEvent.setup();
    const photo = { key: 'p-left-out', width: 1000, height: 800, name: 'hand.jpg' };
    const ts = tiles(`${HAND13} 4s`).map((t, i) => ({ ...t, box: [i * 60, 100, 50, 70] as [number, number, number, number] }));
    const { present } = mount(<ReviewView onNext={() => undefined} />, work({ tiles: ts, source: 'photo', photo, leftOut: [{ code: '5z', box: [500, 600, 50, 70], score: 0.41 }] }));
    // far below the row of tiles, so outside the view zoomed to them
    expect(screen.getByText('One doubtful detection was left out as not a tile (dashed on the photo). Tap it if it is a tile. One of them lies outside this view (Show the whole photo).')).toBeTruthy();
    expect(screen.getByText('The tile count is right.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Left out: White Dragon. Add it to the hand' }));
    expect(present().tiles.map((t) => t.code)).toContain('5z');
    expect(present().tiles).toHaveLength(15);
    expect(present().leftOut).toBeUndefined();
    expect(screen.queryByRole('button', { name: /^Left out/ })).toBeNull();
    expect(screen.queryByText(/left out as not a tile/)).toBeNull();
  });
});

describe('ReviewView: retake advice', () => {
  it('suggests taking the photo again when many tiles are uncertain, and drops the advice once the player has checked them', async () => {
    const user = userEvent.setup();
    const photo = { key: 'p-blurred', width: 1000, height: 800, name: 'blurred.jpg' };
    // five of fourteen tiles below the "please check" mark: a blurred photo
    const ts = tiles(`${HAND13} 4s`).map((t, i) => ({ ...t, box: [i * 60, 100, 50, 70] as [number, number, number, number], score: i < 5 ? 0.35 : 0.97, alternatives: i < 5 ? ['9p'] : undefined }));
    const { present } = mount(<ReviewView onNext={() => undefined} />, work({ tiles: ts, source: 'photo', photo }));
    expect(screen.getByText('5 of 14 tiles are uncertain (marked). If the photo is blurred, dark or taken at a steep angle, take it again; otherwise check the marked tiles.').getAttribute('role')).toBe('status');
    // correcting one leaves four of fourteen, under a third: the marks stay, the advice goes
    await user.click(screen.getAllByRole('button', { name: 'Tile 1: 1 Characters, 35% sure, please check' })[0]);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: '1 Characters' }));
    expect(present().tiles[0].score).toBeUndefined();
    expect(screen.queryByText(/tiles are uncertain/)).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Tile 2: 2 Characters, 35% sure, please check' })).toHaveLength(2); // on the photo and in the hand
  });

  it('gives no retake advice for typed-in hands or a scan with a few doubts', () => {
    const ts = tiles(`${HAND13} 4s`).map((t, i) => ({ ...t, box: [i * 60, 100, 50, 70] as [number, number, number, number], score: i < 4 ? 0.35 : 0.97 }));
    mount(<ReviewView onNext={() => undefined} />, work({ tiles: ts, source: 'photo', photo: { key: 'p-few', width: 1000, height: 800, name: 'few.jpg' } }));
    expect(screen.queryByText(/tiles are uncertain/)).toBeNull();
    cleanup();
    mount(<ReviewView onNext={() => undefined} />, work({ tiles: ts.map((t) => ({ ...t, score: 0.2 })) }));
    expect(screen.queryByText(/tiles are uncertain/)).toBeNull();
  });
});
