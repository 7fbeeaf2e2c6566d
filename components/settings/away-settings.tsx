'use client';
import { useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { type Preferences } from '@/lib/contracts';
import { updatePreferences } from '@/lib/client/connection-loader';
import { SwitchRow } from './switch-row';
import '@/lib/client/i18n-en-settings';

/**
 * "I'm away from my desk" (R19.50): a host preference, the same as `askaway away`. While it is on, Claude Code holds
 * each finished turn for a reply from the phone; the other agents take a reply whether or not.
 */
export function AwaySettings({ preferences, connected }: { preferences: Preferences | null; connected: boolean }) {
  const { t } = useI18n();
  const [failed, setFailed] = useState(false);
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
          disabled={!connected || !preferences}
          strong
          onChange={(on) => {
            setFailed(false);
            void updatePreferences({ away: on }).then((ok) => setFailed(!ok));
          }}
          testId="settings.away"
        />
        <p className="settings__explain" data-testid="settings.away-explain">
          {away ? t('settings.awayExplainOn') : t('settings.awayExplainOff')}
        </p>
        <p className="form__hint">{t('settings.awayCli')}</p>
        {failed ? (
          <p className="state state--danger" role="alert">
            {t('settings.saveFailed')}
          </p>
        ) : null}
      </div>
    </section>
  );
}
