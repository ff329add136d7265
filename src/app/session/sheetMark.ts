/**
 * Which sheet hand a scanned hand went to.
 *
 * The result screen must know, after a reload or a trip to the Table tab, that
 * the hand on screen is already on the sheet, or it would offer to add it again
 * (as the next hand, with the next hand's seats). So when a result is added, the
 * scanner's work remembers it (`SheetMark`, saved with the work's history), and
 * the sheet hand it made is found again by its hand link.
 *
 * What a club referee expects when the hand is corrected after it was added:
 * it is still the same hand of the game, so the result offers to update that
 * sheet hand (same hand number, same seats, its penalties kept), never to add a
 * second one. A new photo or a newly typed hand is new work, and is added as the
 * next hand. When the sheet hand is no longer there (deleted, undone, edited by
 * hand so that it lost its link, or another table started), the hand is not on
 * the sheet, and may be added again.
 */
import type { SheetHand, SheetRecord } from '../../engine/sheet.ts';
import type { History } from '../model/commands.ts';
import type { Work } from '../model/work.ts';
import { handInfo, nextHandInfo, type NextHandInfo } from './seats.ts';

/** Set on the scanner's work once its result is on the sheet. */
export interface SheetMark {
  /** 0-based index of the sheet hand when it was added or last updated. */
  index: number;
  /** The hand link put on that sheet hand: it finds the hand again. */
  link: string;
  /**
   * The work's tile uids then. Commands keep a tile's uid and every new tile gets
   * a fresh one (loadTiles included), so a snapshot that still holds one of these
   * tiles is this work, corrected or not, and a new scan or typed hand is not.
   */
  uids: string[];
}

/**
 * The work with its mark. Not a field of `Work` itself: the mark belongs to the
 * session feature; it rides along in the work's snapshots (every command copies
 * the work with `...w`) and is saved and loaded with them.
 */
export type MarkedWork = Work & { sheet?: SheetMark };

/** A hand link without the page's address (`#/h/` onwards), so a moved app still finds its hands. */
const linkKey = (link: string): string => {
  const at = link.indexOf('#/h/');
  return at >= 0 ? link.slice(at) : link;
};

/** The mark of `work` when it is really this work's (a stale one rides along into new work). */
export function sheetMarkOf(work: Work): SheetMark | null {
  const mark = (work as MarkedWork).sheet;
  if (!mark || !Array.isArray(mark.uids)) return null;
  return work.tiles.some((t) => mark.uids.includes(t.uid)) ? mark : null;
}

/** 0-based index of the sheet hand this work was put on, or null when it is not on the sheet. */
export function sheetHandOf(record: SheetRecord | null, work: Work): number | null {
  const mark = sheetMarkOf(work);
  if (!record || !mark) return null;
  const key = linkKey(mark.link);
  const holds = (h: SheetHand | undefined) => h?.kind === 'win' && h.link !== undefined && linkKey(h.link) === key;
  if (holds(record.hands[mark.index])) return mark.index;
  // Hands before it were deleted, so it moved up.
  const at = record.hands.findIndex(holds);
  return at >= 0 ? at : null;
}

/** Mark every snapshot of this work in the history (undo and redo keep the mark); other works' snapshots stay. */
export function markHistory(history: History, mark: SheetMark): History {
  const put = (w: Work): Work => (w.tiles.some((t) => mark.uids.includes(t.uid)) ? ({ ...w, sheet: mark } as MarkedWork) : w);
  return { past: history.past.map(put), present: put(history.present), future: history.future.map(put) };
}

/** What the result screen offers for the work on screen. */
export type SheetPlace =
  /** No table, or the sheet is full and this hand is not on it. */
  | { kind: 'none' }
  /** Add it as the next hand. `lost`: the hand number it was added as before, when that hand has left the sheet. */
  | { kind: 'new'; hand: NextHandInfo; lost: number | null }
  /** It is on the sheet as it is now. */
  | { kind: 'added'; hand: NextHandInfo }
  /** It is on the sheet, but the player changed it since: update that hand. */
  | { kind: 'changed'; hand: NextHandInfo };

/** Where the work on screen stands on the sheet; `link` is its hand link as scored now. */
export function sheetPlace(record: SheetRecord | null, work: Work, link: string): SheetPlace {
  if (!record) return { kind: 'none' };
  const index = sheetHandOf(record, work);
  if (index !== null) {
    const h = record.hands[index];
    const same = h.kind === 'win' && h.link !== undefined && linkKey(h.link) === linkKey(link);
    return { kind: same ? 'added' : 'changed', hand: handInfo(record, index) };
  }
  const next = nextHandInfo(record);
  if (!next) return { kind: 'none' };
  const mark = sheetMarkOf(work);
  return { kind: 'new', hand: next, lost: mark ? mark.index + 1 : null };
}
