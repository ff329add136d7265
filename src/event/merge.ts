/**
 * Merging a table's ops into its sheet (docs/event-api.md, "Table sheet sync").
 *
 * Each hand is one row keyed by `handId`. The write with the later `at` wins, ties broken by the
 * larger `opId`, so the outcome does not depend on the order ops arrive in; a delete is a
 * tombstone, so a late put of an older edit cannot bring a deleted hand back. Hands are ordered
 * by `firstAt`, the earliest `at` among the hand's ops (its first put, in practice), then
 * `handId`. Every rule is a minimum or maximum over the ops, so any order of the same set of
 * ops, with any retries, gives the same rows: the two phones of a table converge.
 */
import type { SheetHand } from '../engine/sheet.ts';
import type { Op } from './protocol.ts';

/** One stored hand row; `hand` null is a tombstone. */
export interface HandRow {
  handId: string;
  hand: SheetHand | null;
  /** `at` and `opId` of the op that wrote the row's content. */
  at: number;
  opId: string;
  firstAt: number;
  /** A photo the table chose to send with this hand (data: URL): the one of the winning put, else
   * the one kept before. Photos are for the referee only and are not part of the sheet. */
  photo?: string;
}

/** True when an op with (at, opId) beats the row's current writer. */
export function opWins(op: { at: number; opId: string }, row: { at: number; opId: string }): boolean {
  return op.at > row.at || (op.at === row.at && op.opId > row.opId);
}

/** The row after applying `op` (pure); `row` is undefined for a hand never seen. */
export function applyOp(row: HandRow | undefined, op: Op): HandRow {
  if (row === undefined) {
    const fresh: HandRow = { handId: op.handId, hand: op.kind === 'put' ? op.hand : null, at: op.at, opId: op.opId, firstAt: op.at };
    if (op.kind === 'put' && op.photo !== undefined) fresh.photo = op.photo;
    return fresh;
  }
  const firstAt = Math.min(row.firstAt, op.at);
  if (!opWins(op, row)) return firstAt === row.firstAt ? row : { ...row, firstAt };
  const next: HandRow = { handId: row.handId, hand: op.kind === 'put' ? op.hand : null, at: op.at, opId: op.opId, firstAt };
  const photo = op.kind === 'put' ? op.photo ?? row.photo : row.photo;
  if (photo !== undefined) next.photo = photo;
  return next;
}

/** Apply ops to rows (a Map by handId, not mutated); duplicates change nothing. */
export function applyOps(rows: ReadonlyMap<string, HandRow>, ops: readonly Op[]): Map<string, HandRow> {
  const out = new Map(rows);
  for (const op of ops) out.set(op.handId, applyOp(out.get(op.handId), op));
  return out;
}

/** The live hands in play order: by firstAt, then handId. */
export function liveRows(rows: Iterable<HandRow>): HandRow[] {
  return [...rows].filter((r) => r.hand !== null).sort((a, b) => a.firstAt - b.firstAt || (a.handId < b.handId ? -1 : a.handId > b.handId ? 1 : 0));
}
