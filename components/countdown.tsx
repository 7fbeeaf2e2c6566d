'use client';
import { useI18n } from '@/hooks/use-i18n';
import { useLive } from '@/hooks/use-live';
import { useNow } from '@/hooks/use-now';
import { type AutoResolutionState, type InteractionView } from '@/lib/contracts';
import { formatCountdown, formatStamp } from '@/lib/client/format';
import { IconClock, IconPause } from './icons/time';
import '@/lib/client/i18n-en-prompts';

/** When the prompt leaves the phone for its agent's terminal (R11.11), and that terminal's machine. */
export interface TerminalMove {
  at: string;
  machine: string;
}

/** The prompt's move to its terminal, when its agent says one comes (`context.movesToTerminalAt`). */
export function terminalMoveOf(view: Pick<InteractionView, 'context' | 'machine'>): TerminalMove | undefined {
  const at = view.context?.movesToTerminalAt;
  return at === undefined ? undefined : { at, machine: view.machine.name };
}

/**
 * "Agent continues on its own in 4:12", counted from the host's absolute deadline
 * with this device's clock skew removed, so every device shows the same second (R9.9).
 * A countdown says the question is still waiting right now, which only live state knows: on a
 * cached or disconnected inbox the deadline shows as a time of day instead ("… at 14:07").
 * A prompt its agent moves to the terminal after a while (`terminal`; such prompts have no auto-resolution)
 * counts down to that instead of saying the agent waits, which it does not.
 */
export function Countdown({
  autoResolution,
  clockOffsetMs,
  showWaiting = false,
  terminal,
}: {
  autoResolution: AutoResolutionState;
  clockOffsetMs: number;
  showWaiting?: boolean;
  terminal?: TerminalMove | undefined;
}) {
  const { t, lang } = useI18n();
  const live = useLive();
  const now = useNow('second');
  const deadlineAt = terminal?.at ?? (autoResolution.status === 'scheduled' ? autoResolution.deadlineAt : undefined);
  if (deadlineAt === undefined) {
    if (!showWaiting) return null;
    return (
      <p className="state state--quiet" data-testid="card.auto-off">
        <IconPause size={16} />
        <span>{t('countdown.waits')}</span>
      </p>
    );
  }
  const deadline = Date.parse(deadlineAt);
  const remaining = now === 0 ? null : deadline - (now + clockOffsetMs);
  const machine = terminal?.machine ?? '';
  let text = '';
  if (remaining !== null && !live) {
    const time = formatStamp(new Date(deadline - clockOffsetMs).toISOString(), lang, now);
    text = terminal
      ? t('countdown.terminalAt', { time, machine })
      : t(remaining <= 0 ? 'countdown.wasDueAt' : 'countdown.continuesAt', { time });
  } else if (remaining !== null) {
    // A prompt due to move is gone within the second: it counts to 0:00, not past it.
    text = terminal
      ? t('countdown.terminalIn', { t: formatCountdown(Math.max(0, remaining)), machine })
      : remaining <= 0
        ? t('countdown.continuesNow')
        : t('countdown.continuesIn', { t: formatCountdown(remaining) });
  }
  return (
    <p
      className="state state--auto"
      data-testid="countdown"
      data-kind={terminal ? 'terminal' : 'auto'}
      data-deadline={deadlineAt}
      data-live={live ? 'true' : 'false'}
    >
      <IconClock size={16} />
      <span className="tabular">{text}</span>
    </p>
  );
}
