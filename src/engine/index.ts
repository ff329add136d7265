/**
 * Public entry of the scoring engine. Everything outside src/engine imports from here.
 */
export * from './tiles.ts';
export * from './errors.ts';
export * from './hand.ts';
export * from './result.ts';
export { parseHand, parseMcrNotation, parseMpsz, formatHand, formatMpsz } from './notation.ts';
export { FANS, fanById } from './mcr/fans.ts';
export type { FanDef } from './mcr/fans.ts';
export { scoreMcr } from './mcr/score.ts';
export { whatIf, allDecompositions, waitingTiles } from './analysis.ts';
export type { WhatIf } from './analysis.ts';
export { mcrPayments } from './payments.ts';
export { validateHand, validateContext } from './validate.ts';
export { registerRuleset, getRuleset, rulesetIds } from './ruleset.ts';
export type { Ruleset, RulesetFan } from './ruleset.ts';
export { MCR } from './mcr/ruleset.ts';
export { parseWaitingHand } from './notation.ts';

import { registerRuleset as register } from './ruleset.ts';
import { MCR as mcrRuleset } from './mcr/ruleset.ts';
register(mcrRuleset);
export * from './sheet.ts';
export { FAN_PAYS } from './fanpays/ruleset.ts';
export { fanPaysContext } from './fanpays/context.ts';
export type { FanPaysContext } from './fanpays/context.ts';
export { FAN_PAYS_FANS, fanPaysFan } from './fanpays/fans.ts';
export type { FanPaysFan } from './fanpays/fans.ts';
export { EXCLUSIONS as FAN_PAYS_EXCLUSIONS } from './fanpays/exclusions.ts';
export { scoreFanPays, allFanPaysReadings, fanPaysWaits } from './fanpays/score.ts';
export type { FanPaysResult } from './fanpays/score.ts';
import { FAN_PAYS as fanPaysRuleset } from './fanpays/ruleset.ts';
register(fanPaysRuleset);
export { handFromTiles, scoreTiles } from './fromTiles.ts';
export type { RecognisedTile, FromTilesOptions } from './fromTiles.ts';
