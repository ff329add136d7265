/** The scanner's ruleset: one tap to switch with no table open; fixed by an open table. */
import { useTranslation } from 'react-i18next';
import { RULESET_IDS, setGlobalRuleset, useRulesetChoice, activeRuleset } from './active.ts';

export function RulesetPicker() {
  const { t } = useTranslation();
  const choice = useRulesetChoice();
  const active = activeRuleset(choice);
  if (choice.table) {
    return (
      <p className="ruleset-bar" data-testid="ruleset" data-ruleset={active}>
        <span className="field-label">{t('rules.label')}</span> <strong>{t(`rules.${active}`)}</strong>{' '}
        <small>{t('rules.fromTable')}</small>
      </p>
    );
  }
  return (
    <div className="ruleset-bar" data-testid="ruleset" data-ruleset={active}>
      <span className="field-label" id="ruleset-lbl">{t('rules.label')}</span>
      <div className="seg" role="group" aria-labelledby="ruleset-lbl">
        {RULESET_IDS.map((id) => (
          <button key={id} type="button" aria-pressed={active === id} onClick={() => setGlobalRuleset(id)}>{t(`rules.${id}`)}</button>
        ))}
      </div>
    </div>
  );
}
