'use client';
import { useI18n } from '@/hooks/use-i18n';
import { type Preferences } from '@/lib/contracts';
import { SwitchRow } from './switch-row';
import { usePreferenceSave } from './use-preference-save';
import '@/lib/client/i18n-en-settings';

/**
 * "I'm away from my desk" (R19.50): a host preference, the same as `askaway away`. While it is on, Claude Code holds
 * each finished turn for a reply from the phone; the other agents take a reply whether or not.
 */
export function AwaySettings({
  preferences,
  connected,
  locked = false,
}: {
  preferences: Preferences | null;
  connected: boolean;
  /** A member's device on a team hub: shown, not changeable (R21.71). */
  locked?: boolean;
}) {
  const { t } = useI18n();
  const { save, failure } = usePreferenceSave();
  const away = preferences?.away ?? false;
  return (
    <section className="settings__section" aria-labelledby="s-away" data-testid="settings.away-section">
      <h2 id="s-away" className="settings__title">
        {t('settings.away')}
      </h2>
      <div className="settings__group">
        <SwitchRow
          label={t('settings.awayToggle')}
          checked={away}
          disabled={!connected || !preferences || locked}
          strong
          onChange={(on) => save({ away: on })}
          testId="settings.away"
        />
        <p className="settings__explain" data-testid="settings.away-explain">
          {away ? t('settings.awayExplainOn') : t('settings.awayExplainOff')}
        </p>
        <p className="form__hint" data-testid={locked ? 'settings.team-locked' : undefined}>
          {locked ? t('settings.teamLocked') : t('settings.awayCli')}
        </p>
        {failure}
      </div>
    </section>
  );
}
