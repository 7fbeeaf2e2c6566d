'use client';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { NOTIFY_DELAYS_MS, type NotifyDelayMs } from '@/lib/contracts/limits';
import { type Preferences } from '@/lib/contracts/preferences';
import { type PushStatus } from '@/lib/contracts/push';
import { errorMessage } from '@/lib/contracts/unknown';
import { formatDuration } from '@/lib/client/format';
import { onPushChannelChange, pushChannelConnected } from '@/lib/client/push/channel';
import { fill, PUSH_MESSAGES, type PushMessages } from '@/lib/client/push/messages';
import { publishNtfyTopics } from '@/lib/client/push/ntfy-topics';
import type * as PushClientModule from '@/lib/client/push/push-client';
import { PushClientError } from '@/lib/client/push/push-error';
import { detectPushSupport, readPushEnvironment, type PushSupport } from '@/lib/client/push/support';
import { readWorkerDevice, setAnswerButtons } from '@/lib/client/worker-device';
import { SwitchRow } from './settings/switch-row';
import { usePreferenceSave } from './settings/use-preference-save';
import '@/lib/client/i18n-en-settings';
import '@/app/styles/settings.css';

type PushClient = typeof PushClientModule;
let pushClient: PushClient | null = null;

/** The push client reads the host's replies with the contracts' zod schemas: loaded with this section, not in the first screen. */
function loadPushClient(): Promise<PushClient> {
  return import('@/lib/client/push/push-client').then((module) => (pushClient = module));
}

type Note = { tone: 'ok' | 'danger'; text: string } | null;

/**
 * Settings → Notifications (R14.1, R14.6, R14.7): Web Push for this device, when the host notifies (shared by
 * every device), a test button, and an optional ntfy topic.
 */
export function NotificationSettings({
  connected,
  preferences,
  locked = false,
}: {
  connected: boolean;
  preferences: Preferences | null;
  /** A member's device on a team hub: when the hub notifies is shown, not changeable (R21.71). */
  locked?: boolean;
}) {
  const { lang, t } = useI18n();
  const m = PUSH_MESSAGES[lang];
  const support = usePushSupport();
  const [status, setLocalStatus] = useState<PushStatus | null>(null);
  // Settings → Devices shows each topic beside its device (R12.15).
  const setStatus = useCallback((next: PushStatus | null) => {
    setLocalStatus(next);
    publishNtfyTopics(next?.ntfyTopics ?? []);
  }, []);
  const [ntfyDraft, setNtfyDraft] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<Note>(null);

  const refresh = useCallback(() => {
    if (!pushChannelConnected()) return;
    loadPushClient()
      .then((client) => client.getPushStatus())
      .then(setStatus, () => setStatus(null));
  }, [setStatus]);

  useEffect(() => {
    refresh();
    return onPushChannelChange(refresh);
  }, [refresh, connected]);

  const run = (work: () => Promise<Note>) => {
    setBusy(true);
    setNote(null);
    work()
      .then(setNote, (error: unknown) => setNote({ tone: 'danger', text: describeError(error, m) }))
      .finally(() => setBusy(false));
  };

  // Called straight from the click: the permission prompt needs the user's gesture. The switch is
  // enabled only once a status came back, so the client is loaded and nothing is awaited before it.
  const toggle = (on: boolean) =>
    run(async () => {
      const client = pushClient ?? (await loadPushClient());
      setStatus(await (on ? client.enablePush() : client.disablePush()));
      return null;
    });

  const test = () =>
    run(async () => {
      const client = pushClient ?? (await loadPushClient());
      const result = await client.sendTestPush();
      // An expired subscription is gone from the host now: show the switch as off.
      if (result.webPush === 'expired') {
        setStatus(await client.getPushStatus());
        return { tone: 'danger', text: m.test_expired };
      }
      if (result.webPush === 'failed' || result.ntfy === 'failed') {
        return { tone: 'danger', text: fill(m.test_failed, { detail: result.detail ?? '' }) };
      }
      return { tone: 'ok', text: result.webPush === 'sent' ? m.test_sent : m.test_ntfy_sent };
    });

  const ntfyValue = ntfyDraft ?? status?.ntfyTopicUrl ?? '';
  const saveNtfy = (value: string) =>
    run(async () => {
      if (value.trim() !== '' && !/^https:\/\/\S+$/i.test(value.trim()))
        return { tone: 'danger', text: m.ntfy_invalid };
      const client = pushClient ?? (await loadPushClient());
      try {
        setStatus(await client.setNtfyTopic(value));
      } catch (error) {
        // The host says why it refused the topic (R12.15): that, not "could not turn on notifications".
        if (error instanceof PushClientError && error.code === 'host-refused')
          return { tone: 'danger', text: error.message };
        throw error;
      }
      setNtfyDraft(null);
      return { tone: 'ok', text: m.ntfy_saved };
    });

  const offline = !connected;
  const subscribed = status?.subscribed ?? false;
  const canTest = !offline && !busy && (subscribed || Boolean(status?.ntfyTopicUrl));
  const hostTopic = status?.ntfyTopics.find((topic) => topic.deviceId === null);

  return (
    <section className="settings__section" aria-labelledby="s-notifications" data-testid="settings.notifications">
      <h2 id="s-notifications" className="settings__title">
        {t('settings.notifications')}
      </h2>
      <div className="settings__group">
        {support === null ? null : support.status === 'unsupported' ? (
          <p className="settings__explain" data-testid="settings.push-unsupported">
            {m.unsupported[support.reason]}
          </p>
        ) : support.status === 'denied' && !subscribed ? (
          <p className="settings__explain" data-testid="settings.push-denied">
            {m.denied}
          </p>
        ) : (
          <>
            <label className="settings__row switch-row">
              <span className="settings__label settings__label--strong">{m.enable}</span>
              <input
                type="checkbox"
                role="switch"
                className="switch"
                checked={subscribed}
                disabled={offline || busy || status === null}
                onChange={(event) => toggle(event.target.checked)}
                data-testid="settings.push-toggle"
              />
            </label>
            <p className="settings__explain">{subscribed ? m.enabled_explain : m.disabled_explain}</p>
            <p className="form__hint">{m.burst_explain}</p>
          </>
        )}
        {support === null ? null : <AnswerButtons m={m} />}

        <NotifyDelay preferences={preferences} connected={connected && !locked} />
        <FinishedTurnsSetting preferences={preferences} connected={connected && !locked} />
        {locked ? <p className="form__hint">{t('settings.teamLocked')}</p> : null}

        <label className="settings__row settings__row--stack">
          <span className="settings__label">{m.ntfy_label}</span>
          <input
            type="url"
            inputMode="url"
            className="field"
            placeholder="https://ntfy.sh/…"
            value={ntfyValue}
            disabled={offline || busy}
            onChange={(event) => setNtfyDraft(event.target.value)}
            data-testid="settings.push-ntfy"
          />
          <span className="form__hint">{m.ntfy_hint}</span>
        </label>
        <div className="settings__row settings__row--buttons">
          <button
            type="button"
            className="button"
            disabled={offline || busy || ntfyDraft === null}
            onClick={() => saveNtfy(ntfyValue)}
            data-testid="settings.push-ntfy-save"
          >
            {m.ntfy_save}
          </button>
          {status?.ntfyTopicUrl ? (
            <button
              type="button"
              className="button button--ghost"
              disabled={offline || busy}
              onClick={() => saveNtfy('')}
            >
              {m.ntfy_clear}
            </button>
          ) : null}
          <button type="button" className="button" disabled={!canTest} onClick={test} data-testid="settings.push-test">
            {m.test}
          </button>
        </div>

        {hostTopic ? (
          <p className="form__hint" data-testid="settings.push-ntfy-host">
            {m.ntfy_host.split('{url}').map((part, index) =>
              index === 0 ? (
                part
              ) : (
                <span key={index}>
                  <bdi className="mono">{hostTopic.url}</bdi>
                  {part}
                </span>
              ),
            )}
          </p>
        ) : null}
        {offline ? <p className="form__hint">{m.offline}</p> : null}
        {busy ? <p className="state state--quiet">{m.working}</p> : null}
        {note ? (
          <p
            className={`state state--${note.tone}`}
            role={note.tone === 'danger' ? 'alert' : 'status'}
            data-testid="settings.push-note"
          >
            {note.text}
          </p>
        ) : null}
      </div>
    </section>
  );
}

/**
 * "Answer buttons on notifications" (R14.12): this device's own choice, kept where its service worker reads it.
 * Hidden where notifications show no buttons (iPhone, iPad, Safari on a Mac), with one line saying so.
 */
function AnswerButtons({ m }: { m: PushMessages }) {
  const shown = useSyncExternalStore(subscribeNothing, notificationButtonsShown, () => false);
  const [on, setOn] = useState<boolean | null>(null);
  useEffect(() => {
    if (!shown) return;
    let live = true;
    readWorkerDevice().then(
      (device) => live && setOn(device ? device.answerButtons : null),
      () => live && setOn(null),
    );
    return () => {
      live = false;
    };
  }, [shown]);
  if (!shown) {
    return (
      <p className="form__hint" data-testid="settings.push-buttons-unavailable">
        {m.buttons_unavailable}
      </p>
    );
  }
  return (
    <>
      <SwitchRow
        label={m.buttons_label}
        checked={on ?? true}
        disabled={on === null}
        onChange={(next) => {
          setOn(next);
          void setAnswerButtons(next).catch(() => setOn(!next));
        }}
        testId="settings.push-buttons"
      />
      <p className="settings__explain">{m.buttons_explain}</p>
    </>
  );
}

/** Whether this browser's notifications show buttons at all (`Notification.maxActions`, 0 or absent where not). */
function notificationButtonsShown(): boolean {
  const api = typeof Notification === 'function' ? (Notification as unknown as { maxActions?: number }) : undefined;
  return (api?.maxActions ?? 0) > 0;
}

/** "Notify my phone" (R14.7): the host holds a question back this long, so one answered at the desk buzzes nothing. */
function NotifyDelay({ preferences, connected }: { preferences: Preferences | null; connected: boolean }) {
  const { lang, t } = useI18n();
  const m = PUSH_MESSAGES[lang];
  const { save, failure } = usePreferenceSave();
  const delay = preferences?.notifyDelayMs ?? 0;
  const label = (ms: NotifyDelayMs) => (ms === 0 ? m.delay_now : fill(m.delay_after, { t: formatDuration(ms, t) }));
  return (
    <>
      <label className="settings__row">
        <span className="settings__label">{m.delay_label}</span>
        <select
          className="field settings__select"
          value={delay}
          disabled={!connected || !preferences}
          onChange={(event) => {
            const chosen = NOTIFY_DELAYS_MS.find((ms) => ms === Number(event.target.value));
            if (chosen !== undefined) save({ notifyDelayMs: chosen });
          }}
          data-testid="settings.push-delay"
        >
          {NOTIFY_DELAYS_MS.map((ms) => (
            <option key={ms} value={ms}>
              {label(ms)}
            </option>
          ))}
        </select>
      </label>
      <p className="settings__explain" data-testid="settings.push-delay-explain">
        {delay === 0 ? m.delay_explain_now : fill(m.delay_explain_after, { t: formatDuration(delay, t) })}
      </p>
      {failure}
    </>
  );
}

/** "Finished turns" (R19.9): whether an agent finishing its turn buzzes, for every device (a host preference). */
function FinishedTurnsSetting({ preferences, connected }: { preferences: Preferences | null; connected: boolean }) {
  const { lang } = useI18n();
  const m = PUSH_MESSAGES[lang];
  const { save, failure } = usePreferenceSave();
  const on = preferences?.notifyFinishedTurns ?? true;
  return (
    <>
      <SwitchRow
        label={m.turns_label}
        checked={on}
        disabled={!connected || !preferences}
        onChange={(next) => save({ notifyFinishedTurns: next })}
        testId="settings.push-turns"
      />
      <p className="settings__explain" data-testid="settings.push-turns-explain">
        {on ? m.turns_on : m.turns_off}
      </p>
      {failure}
    </>
  );
}

const subscribeNothing = () => () => undefined;
const supportKey = (support: PushSupport) =>
  support.status === 'unsupported'
    ? `unsupported:${support.reason}`
    : support.status === 'denied'
      ? 'denied'
      : 'supported';

/**
 * Read from the browser at render (not in an effect), as a string so the snapshot is stable;
 * null while prerendering. Re-read on every render, so a permission change shows after the click.
 */
function usePushSupport(): PushSupport | null {
  const key = useSyncExternalStore(
    subscribeNothing,
    () => supportKey(detectPushSupport(readPushEnvironment())),
    () => null,
  );
  if (key === null) return null;
  if (key === 'denied') return { status: 'denied' };
  if (key === 'supported') return { status: 'supported', permission: 'default' };
  return detectPushSupport(readPushEnvironment());
}

function describeError(error: unknown, m: PushMessages): string {
  if (error instanceof PushClientError) {
    if (error.code === 'denied') return m.denied;
    if (error.code === 'dismissed') return m.dismissed;
    if (error.code === 'not-connected') return m.offline;
    return fill(m.failed, { detail: error.message });
  }
  return fill(m.failed, { detail: errorMessage(error) });
}
