'use client';
import { useI18n } from '@/hooks/use-i18n';
import { useLive } from '@/hooks/use-live';
import { useNow } from '@/hooks/use-now';
import { type AutoResolutionState, type InteractionView } from '@/lib/contracts';
import { formatCountdown, formatStamp } from '@/lib/client/format';
import { IconClock, IconPause } from './icons/outcomes';
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

/** The words of each countdown: the agent going on by itself (R6), or the prompt moving to its terminal (R11.11). */
const WORDS = {
  auto: {
    in: 'countdown.continuesIn',
    now: 'countdown.continuesNow',
    at: 'countdown.continuesAt',
    was: 'countdown.wasDueAt',
  },
  terminal: {
    in: 'countdown.terminalIn',
    now: 'countdown.terminalNow',
    at: 'countdown.terminalAt',
    was: 'countdown.terminalWasAt',
  },
} as const;

/**
 * "Agent continues on its own in 4:12", counted from the host's absolute deadline
 * with this device's clock skew removed, so every device shows the same second (R9.9).
 * A countdown says the question is still waiting right now, which only live state knows: on a
 * cached or disconnected inbox the deadline shows as a time of day instead ("… at 14:07").
 * A prompt whose agent asks in its terminal after a while (`terminal`) counts down to that instead of saying
 * the agent waits, which it does not.
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
  terminal?: TerminalMove;
}) {
  const { t, lang } = useI18n();
  const live = useLive();
  const now = useNow('second');
  const moves = terminal === undefined ? undefined : Date.parse(terminal.at);
  const scheduled = autoResolution.status === 'scheduled' ? Date.parse(autoResolution.deadlineAt) : undefined;
  const kind =
    moves !== undefined && !Number.isNaN(moves) && (scheduled === undefined || moves < scheduled) ? 'terminal' : 'auto';
  if (kind === 'auto' && autoResolution.status !== 'scheduled') {
    if (!showWaiting) return null;
    return (
      <p className="state state--quiet" data-testid="card.auto-off">
        <IconPause size={16} />
        <span>{t('countdown.waits')}</span>
      </p>
    );
  }
  const deadline = (kind === 'terminal' ? moves : scheduled) ?? 0;
  const words = WORDS[kind];
  const machine = terminal?.machine ?? '';
  const remaining = now === 0 ? null : deadline - (now + clockOffsetMs);
  let text = '';
  if (remaining !== null && !live) {
    const time = formatStamp(new Date(deadline - clockOffsetMs).toISOString(), lang, now);
    text = t(remaining <= 0 ? words.was : words.at, { time, machine });
  } else if (remaining !== null) {
    text = remaining <= 0 ? t(words.now, { machine }) : t(words.in, { t: formatCountdown(remaining), machine });
  }
  return (
    <p
      className="state state--auto"
      data-testid="countdown"
      data-kind={kind}
      data-deadline={
        kind === 'terminal'
          ? terminal?.at
          : autoResolution.status === 'scheduled'
            ? autoResolution.deadlineAt
            : undefined
      }
      data-live={live ? 'true' : 'false'}
    >
      <IconClock size={16} />
      <span className="tabular">{text}</span>
    </p>
  );
}
