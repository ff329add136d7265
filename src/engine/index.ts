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
export { mcrPayments } from './payments.ts';
export { validateHand, validateContext } from './validate.ts';
