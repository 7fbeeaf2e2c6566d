'use client';
import { useState, type ReactNode } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { type PreferencesPatch } from '@/lib/contracts/preferences';
import { updatePreferences } from '@/lib/client/connection-loader';
import '@/lib/client/i18n-en-settings';

/**
 * Saving a host preference from a settings control: `save` sends the patch (every remote hears the change), and
 * `failure` is the alert to show under the control while the host refused or could not be reached, else null.
 */
export function usePreferenceSave(): { save: (patch: PreferencesPatch) => void; failure: ReactNode } {
  const { t } = useI18n();
  const [failed, setFailed] = useState(false);
  const save = (patch: PreferencesPatch) => {
    setFailed(false);
    void updatePreferences(patch).then((ok) => setFailed(!ok));
  };
  const failure = failed ? (
    <p className="state state--danger" role="alert" data-testid="settings.save-failed">
      {t('settings.saveFailed')}
    </p>
  ) : null;
  return { save, failure };
}
