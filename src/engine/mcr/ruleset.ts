import type { Ruleset } from '../ruleset.ts';
import { waitingTiles } from '../analysis.ts';
import { MCR_SHAPE } from '../validate.ts';
import { FANS } from './fans.ts';
import { scoreMcr } from './score.ts';

export const MCR: Ruleset = {
  id: 'mcr',
  names: { en: 'MCR (Chinese Official)', zh: '国标麻将', pl: 'MCR (Chińskie Oficjalne)', sv: 'MCR (kinesiska officiella regler)' },
  shape: MCR_SHAPE,
  fans: FANS,
  score: scoreMcr,
  waits: waitingTiles,
};
