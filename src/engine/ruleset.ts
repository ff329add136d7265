/**
 * Rulesets. Tiles, notation, the hand model, validation and decomposition are
 * shared; a ruleset brings its hand size, its fans and exclusions, its minimum
 * and its payment rule. A new ruleset registers here and changes no shared code.
 */
import type { Hand, WaitingHand, WinContext } from './hand.ts';
import type { ScoreResult } from './result.ts';
import type { HandShape } from './validate.ts';
import type { FanNames } from './result.ts';

export interface RulesetFan {
  readonly id: number;
  readonly points: number;
  readonly names: FanNames;
}

export interface Ruleset<C extends WinContext = WinContext> {
  readonly id: string;
  readonly names: FanNames;
  /** Sets in a complete hand: 4 (14 tiles) in MCR, 5 (17 tiles) in Fan Pays. */
  readonly shape: HandShape;
  readonly fans: readonly RulesetFan[];
  /** Never throws for bad input: returns validWin false with a typed error. */
  score(hand: Hand, ctx: C): ScoreResult;
  /** Tiles the waiting hand can win on. */
  waits(hand: WaitingHand): number[];
}

const registry = new Map<string, Ruleset<WinContext>>();

export function registerRuleset<C extends WinContext>(r: Ruleset<C>): void {
  registry.set(r.id, r as unknown as Ruleset<WinContext>);
}

export function getRuleset(id: string): Ruleset<WinContext> {
  const r = registry.get(id);
  if (!r) throw new RangeError(`unknown ruleset "${id}" (known: ${[...registry.keys()].join(', ')})`);
  return r;
}

export function rulesetIds(): string[] {
  return [...registry.keys()];
}
