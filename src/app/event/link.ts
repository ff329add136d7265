/**
 * A table's link to an event, as pure data and pure functions: what the phone last heard from
 * the server (`base`, the table's sheet), the changes not yet acknowledged (`queue`, ops with
 * their own ids), and what the player sees: the base with the queue laid over it.
 *
 * Conflicts (docs/event-api.md): every hand is a row keyed by its `handId`; the later write wins
 * on the server, a delete is a tombstone, and the phone replaces its base with the server's sheet
 * in every reply, so two phones at one table converge on the server's order and contents. Ops
 * still in the queue are laid over that base until the server acknowledges them, so a reply that
 * crossed a newer change never takes it off the screen.
 */
import type { GameRecordJson, SheetHand, SheetRecord } from '../../engine/sheet.ts';
import type { EventRules, HandCheck, JoinReply, Op, SheetEntry, TableSheet } from './api.ts';

export interface JoinInfo extends JoinReply {
  /** The code the table joined with (to join again when the token is refused). */
  code: string;
}

/** An op as queued: `photoRef` names the scan's photo (sent only when the table chose so). */
export type QueuedOp = Op & { photoRef?: string };

export interface LinkState {
  version: 1;
  join: JoinInfo;
  /** The server's sheet from its last reply (null until the first one). */
  base: { version: number; hands: SheetEntry[]; players?: string[] } | null;
  queue: QueuedOp[];
  /** Hands deleted here lately, so an undo of the deletion puts the same hand (same id) back. */
  deleted: { handId: string; hand: SheetHand }[];
  /** Send the scan's photo with a scored hand (off unless the table turns it on). */
  sendPhotos: boolean;
  /** Changes the server refused (a hand that breaks the sheet's rules, a full sheet), kept to be shown. */
  refused: { op: QueuedOp; code: string; message: string }[];
  /** The phone's own sheet that joining replaced (game-record JSON), kept so it can still be saved. */
  before?: GameRecordJson;
}

export const DELETED_KEPT = 20;

export function newLink(join: JoinInfo): LinkState {
  return { version: 1, join, base: null, queue: [], deleted: [], sendPhotos: false, refused: [] };
}

export interface View {
  hands: SheetHand[];
  ids: string[];
  /** The server's check of each hand; null while the hand's latest change is still queued. */
  checks: (HandCheck | null)[];
}

/** The sheet as the player sees it: the server's rows with the queued ops laid over them in order. */
export function viewOf(link: Pick<LinkState, 'base' | 'queue'>): View {
  const rows: { id: string; hand: SheetHand; check: HandCheck | null }[] = (link.base?.hands ?? [])
    .map((r) => ({ id: r.handId, hand: r.hand, check: r.check ?? null }));
  for (const op of link.queue) {
    const at = rows.findIndex((r) => r.id === op.handId);
    if (op.kind === 'delete') {
      if (at >= 0) rows.splice(at, 1);
    } else if (at >= 0) {
      rows[at] = { id: op.handId, hand: op.hand, check: null };
    } else {
      rows.push({ id: op.handId, hand: op.hand, check: null });
    }
  }
  return { hands: rows.map((r) => r.hand), ids: rows.map((r) => r.id), checks: rows.map((r) => r.check) };
}

/** The event table as a score sheet for the session screen. */
export function recordOf(link: Pick<LinkState, 'join' | 'base'>, hands: SheetHand[]): SheetRecord {
  const { join } = link;
  const record: SheetRecord = {
    // the server's names when it has sent a sheet (the director may reseat before the first hand)
    players: [...(link.base?.players ?? join.players)],
    hands,
    meta: { tournament: join.eventName, session: String(join.session), table: String(join.table) },
  };
  if (join.rules === 'fan-pays') record.rules = 'fan-pays' satisfies EventRules;
  return record;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export interface DiffContext {
  now: number;
  newId: () => string;
  /** Recently deleted hands: a hand equal to one of them comes back with its old id. */
  deleted?: { handId: string; hand: SheetHand }[];
}

/**
 * The ops that turn the sheet `prev` (hands with their ids) into `next`, and the ids of `next`'s
 * hands. The session screen changes one hand at a time (add at the end, edit or delete one,
 * undo or redo one of those), so the hands outside the changed stretch are equal at both ends:
 * inside it, hands are paired in order (an edit keeps the id), extra old ones are deleted and
 * extra new ones are put with new ids (or their old id, when an undo brings a deleted hand back).
 */
export function opsFor(prev: { hands: SheetHand[]; ids: string[] }, next: SheetHand[], ctx: DiffContext): { ops: Op[]; ids: string[]; removed: { handId: string; hand: SheetHand }[] } {
  const n = prev.hands.length;
  const m = next.length;
  let p = 0;
  while (p < n && p < m && same(prev.hands[p], next[p])) p++;
  let s = 0;
  while (s < n - p && s < m - p && same(prev.hands[n - 1 - s], next[m - 1 - s])) s++;
  const ops: Op[] = [];
  const ids = prev.ids.slice(0, p);
  const removed: { handId: string; hand: SheetHand }[] = [];
  const oldMid = n - p - s;
  const newMid = m - p - s;
  const paired = Math.min(oldMid, newMid);
  const stamp = (() => { let t = ctx.now; return () => t++; })();
  const opId = () => ctx.newId();
  for (let i = 0; i < paired; i++) {
    const handId = prev.ids[p + i];
    ops.push({ opId: opId(), kind: 'put', handId, at: stamp(), hand: next[p + i] });
    ids.push(handId);
  }
  for (let i = paired; i < oldMid; i++) {
    const handId = prev.ids[p + i];
    ops.push({ opId: opId(), kind: 'delete', handId, at: stamp() });
    removed.push({ handId, hand: prev.hands[p + i] });
  }
  const reusable = [...(ctx.deleted ?? [])];
  for (let i = paired; i < newMid; i++) {
    const hand = next[p + i];
    const back = reusable.findIndex((d) => same(d.hand, hand) && !prev.ids.includes(d.handId));
    const handId = back >= 0 ? reusable.splice(back, 1)[0].handId : ctx.newId();
    ops.push({ opId: opId(), kind: 'put', handId, at: stamp(), hand });
    ids.push(handId);
  }
  ids.push(...prev.ids.slice(n - s));
  return { ops, ids, removed };
}

/** The link after a server reply: acknowledged ops leave the queue, the server's sheet is the new base. */
export function acknowledge(link: LinkState, applied: readonly string[], sheet: TableSheet): LinkState {
  const done = new Set(applied);
  const queue = link.queue.filter((op) => !done.has(op.opId));
  // A reply older than the sheet already held (a slow read overtaken by a write) changes nothing.
  const base = link.base && link.base.version > sheet.version ? link.base : { version: sheet.version, hands: sheet.hands, players: sheet.players };
  return { ...link, queue, base };
}

/** Ops as sent: the photo reference stays on the phone. */
export function wireOp(op: QueuedOp, photo?: string): Op {
  const { photoRef: _ref, ...rest } = op;
  return photo && rest.kind === 'put' ? { ...rest, photo } : rest;
}
