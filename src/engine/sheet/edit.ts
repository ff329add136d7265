/**
 * Editing a sheet: every command returns a new record and leaves its input untouched.
 */
import {
  SHEET_RULES, SheetError, maxHands, rulesOf,
  type SheetHand, type SheetMeta, type SheetRecord, type SheetRules,
} from './record.ts';
import { gameOver, seatingsOf, type HandSeating } from './seating.ts';
import { validatePlayers, validateSheetHand } from './validation.ts';

export function createSheet(players: readonly string[], meta: SheetMeta = {}, rules: SheetRules = 'mcr'): SheetRecord {
  const names = validatePlayers([...players]);
  if (!SHEET_RULES.includes(rules)) throw new SheetError('MALFORMED_RECORD', `unknown ruleset "${String(rules)}"`, { field: 'rules' });
  const record: SheetRecord = { players: names, hands: [], meta: { ...meta } };
  // MCR records stay exactly as before (no `rules` key).
  if (rules !== 'mcr') record.rules = rules;
  return record;
}

export function addHand(record: SheetRecord, hand: SheetHand): SheetRecord {
  const index = record.hands.length;
  const rules = rulesOf(record);
  if (index >= maxHands(rules)) {
    throw new SheetError('TOO_MANY_HANDS', `a sheet holds at most ${maxHands(rules)} hands`, { hand: index + 1, field: 'hands' });
  }
  if (!seatingsOf(record).next) throw gameOver(record, index);
  validateSheetHand(hand, index, rules);
  return { ...record, hands: [...record.hands, hand] };
}

/** Replace the hand at 0-based `index`. */
export function editHand(record: SheetRecord, index: number, hand: SheetHand): SheetRecord {
  if (!Number.isInteger(index) || index < 0 || index >= record.hands.length) {
    throw new SheetError('NO_SUCH_HAND', `there is no hand ${index + 1} on this sheet`, { hand: index + 1 });
  }
  validateSheetHand(hand, index, rulesOf(record));
  const hands = [...record.hands];
  hands[index] = hand;
  const out = { ...record, hands };
  checkDealKept(record, out, index + 1, 0);
  return out;
}

/** Remove the hand at 0-based `index`; the hands after it move up one place (and so change seats). */
export function deleteHand(record: SheetRecord, index: number): SheetRecord {
  if (!Number.isInteger(index) || index < 0 || index >= record.hands.length) {
    throw new SheetError('NO_SUCH_HAND', `there is no hand ${index + 1} on this sheet`, { hand: index + 1 });
  }
  const out = { ...record, hands: record.hands.filter((_, i) => i !== index) };
  checkDealKept(record, out, index, 1);
  return out;
}

/**
 * Fan Pays: a change to hand `from - 1` (edit) or its removal moves the deal for the hands after
 * it when a dealer's win or a draw becomes another player's win, or the other way round. The
 * change is refused when a later hand would then come after the game's end (GAME_OVER, field
 * "edit"), or when a later hand scored in the app (its `amounts` hold the dealer's payments)
 * would get another dealer or run (DEAL_MOVED). `shift`: later hand i of `after` is hand i +
 * shift of `before`.
 */
function checkDealKept(before: SheetRecord, after: SheetRecord, from: number, shift: number): void {
  if (rulesOf(after) !== 'fan-pays') return;
  const was = seatingsOf(before).seatings;
  let now: HandSeating[];
  try {
    now = seatingsOf(after).seatings;
  } catch (e) {
    if (!(e instanceof SheetError) || e.code !== 'GAME_OVER' || e.hand === null) throw e;
    const end = e.hand - 1;
    throw new SheetError('GAME_OVER', `this change would end the game with hand ${end}, before the hands after it: delete those first`, { hand: end + 1, field: 'edit' });
  }
  for (let i = from; i < after.hands.length; i++) {
    const h = after.hands[i]!, a = was[i + shift]!, b = now[i]!;
    if (h.kind !== 'win' || h.amounts === undefined) continue;
    if (a.dealer !== b.dealer || a.dealerRun !== b.dealerRun || a.round !== b.round) {
      const P = after.players;
      throw new SheetError('DEAL_MOVED', `hand ${i + 1} was scored with ${P[a.dealer]} dealing (run ${a.dealerRun}); after this change ${P[b.dealer]} would deal it (run ${b.dealerRun}): delete hand ${i + 1} and the hands after it first, then score them again`, { hand: i + 1, field: 'dealer' });
    }
  }
}

export function renamePlayers(record: SheetRecord, players: readonly string[]): SheetRecord {
  return { ...record, players: validatePlayers([...players]) };
}
