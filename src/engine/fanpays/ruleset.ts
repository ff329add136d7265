import type { Ruleset } from '../ruleset.ts';
import type { FanPaysContext } from './context.ts';
import { FAN_PAYS_FANS } from './fans.ts';
import { FAN_PAYS_ID, FAN_PAYS_SHAPE, fanPaysWaits, scoreFanPays } from './score.ts';

/** Card 002, "Fan Pays": 16-tile hands (five sets and a pair, 17 tiles with the winning tile). */
export const FAN_PAYS: Ruleset<FanPaysContext> = {
  id: FAN_PAYS_ID,
  names: { en: 'Fan Pays', zh: '番付', pl: 'Fan Pays (płatność za fany)', sv: 'Fan Pays (betalning per fan)' },
  shape: FAN_PAYS_SHAPE,
  fans: FAN_PAYS_FANS,
  score: scoreFanPays,
  waits: fanPaysWaits,
};

