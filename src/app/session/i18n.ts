/**
 * Strings of the table session, under the `session.` key prefix of the default
 * namespace (one JSON file a language in ./locales). Merge with, for example:
 *   for (const [lng, res] of Object.entries(sessionResources))
 *     i18n.addResourceBundle(lng, 'translation', res, true, false);
 */
import type { TFunction } from 'i18next';
import { maxHands, minWinPoints, type SheetRules } from '../../engine/sheet.ts';
import en from './locales/en.json';
import pl from './locales/pl.json';
import sv from './locales/sv.json';
import zh from './locales/zh.json';

export const sessionResources = { en, pl, sv, zh };

export type SessionLanguage = keyof typeof sessionResources;

/** What the app knows of a refused sheet change: a SheetError, or the result screen's NO_TABLE. */
export interface SheetProblem {
  code: string;
  /** 1-based hand, or null for the sheet as a whole. */
  hand?: number | null;
  /** The field the engine names, e.g. `discarder` or `penalties[0].points`. */
  field?: string | null;
}

export interface SheetProblemContext {
  /** The table's ruleset (the least points a win needs). */
  rules?: SheetRules;
  /** The ruleset that scored the hand, when a scored hand was refused for the table's rules. */
  scored?: string;
  /** Reading a file: missing or wrong fields are named, as the file spells them. */
  importing?: boolean;
  /** The message goes inside another sentence ("Could not import the file: ..."), so it keeps its lower case. */
  embedded?: boolean;
}

/** The number in a field such as `players[2]` or `penalties[0].points`, 1-based. */
const nthOf = (field: string | null | undefined): number => {
  const m = /\[(\d+)\]/.exec(field ?? '');
  return m ? Number(m[1]) + 1 : 1;
};

/**
 * A refused sheet change in the player's language. The engine's SheetError
 * messages stay English and technical for the CLI (`hand 1, field "discarder":
 * ...`); the app says what is wrong in words, from the error's code and field.
 */
export function sheetErrorMessage(t: TFunction, e: SheetProblem, ctx: SheetProblemContext = {}): string {
  const field = e.field ?? null;
  const k = (key: string, values?: Record<string, string | number>) => t(`session.error.${key}`, values ?? {});
  const rulesName = (r: string) => t(`session.rules.${r}`, { defaultValue: r });
  let message: string;
  let atHand = e.hand ?? null;
  switch (e.code) {
    case 'NO_TABLE': message = k('noTable'); break;
    case 'WRONG_PLAYER_COUNT': message = k('playerCount'); break;
    case 'INVALID_PLAYER_NAME': message = k('playerName', { n: nthOf(field) }); break;
    case 'DUPLICATE_PLAYER': message = k('duplicatePlayer'); break;
    case 'UNKNOWN_PLAYER': message = k('unknownPlayer', { field: field ?? '' }); break;
    case 'WINNER_IS_DISCARDER': message = k('winnerIsDiscarder'); break;
    case 'INVALID_POINTS': message = k('wholePoints'); break;
    case 'POINTS_BELOW_MINIMUM':
      message = ctx.rules === 'fan-pays' ? k('minFans') : k('minPoints', { min: minWinPoints('mcr') });
      break;
    case 'INVALID_PENALTY': message = k('penalty', { n: nthOf(field) }); break;
    case 'TOO_MANY_HANDS': message = k('tooManyHands', { max: maxHands(ctx.rules) }); atHand = null; break;
    case 'GAME_OVER':
      // an edit or deletion that would end the game before hands already on the sheet
      if (field === 'edit' && e.hand) { message = k('gameEndsEarlier', { end: e.hand - 1 }); atHand = null; }
      else { message = k('gameOver'); atHand = null; }
      break;
    case 'DEAL_MOVED': message = k('dealMoved', { n: e.hand ?? '' }); atHand = null; break;
    case 'NO_SUCH_HAND': message = k('noSuchHand', { n: e.hand ?? '' }); atHand = null; break;
    case 'MISSING_FIELD':
      if (field === 'discarder') message = k('noDiscarder');
      else if (field === 'winner') message = k('noWinner');
      else if (field === 'points') message = k('noPoints');
      // The sheet's commands name "players" when no table is open.
      else if (field === 'players' && !ctx.importing) message = k('noTable');
      else message = k('missingField', { field: field ?? '' });
      break;
    case 'CONFLICTING_FIELDS':
      if (field === 'discarder') message = k('noDiscarderHere');
      else if (field === 'winner' || field === 'self_drawn' || field === 'points') message = k('drawHas');
      else if (field === 'amounts') message = k('amountsMcr');
      else if (field === 'dealer') message = k('dealerNotTable');
      else if (field === 'rules') {
        const table = ctx.rules ?? 'mcr';
        message = k('otherRules', { scored: rulesName(ctx.scored ?? (table === 'mcr' ? 'fan-pays' : 'mcr')), table: rulesName(table) });
      } else message = k('badField', { field: field ?? '' });
      break;
    default:
      // MALFORMED_RECORD, and any code the engine adds later.
      if (field === 'amounts') message = k('amounts');
      else if (field === 'rules') message = k('unknownRules');
      else if (field === null && atHand === null) message = k('notSheet');
      else message = k('badField', { field: field ?? 'hands' });
  }
  const sentence = atHand !== null ? k('atHand', { n: atHand, message }) : k('alone', { message });
  // The messages start in lower case to follow "Hand 1: "; alone, the sentence starts with a capital.
  return atHand !== null || ctx.embedded ? sentence : sentence.charAt(0).toLocaleUpperCase() + sentence.slice(1);
}
