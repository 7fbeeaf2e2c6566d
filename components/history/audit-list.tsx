'use client';
import { useCallback, useEffect, useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { useNow } from '@/hooks/use-now';
import { useRemote } from '@/hooks/use-remote';
import { type AuditLine } from '@/lib/contracts/audit';
import { auditSentence, auditSource } from '@/lib/client/audit-words';
import { formatStamp } from '@/lib/client/format';
import { type Pairing } from '@/lib/client/pairing';
import { readAudit } from '@/lib/client/team-loader';
import { IconAlert } from '../icons/shell';
import '@/lib/client/i18n-en-team';
import '@/app/styles/forms.css';
import '@/app/styles/team.css';

type Page = { phase: 'loading' } | { phase: 'failed'; message: string } | { phase: 'ready' };

/**
 * History → Audit (R21.84, R21.85): a team hub's record, newest first, for an owner's or admin's device. Each line
 * says who did what to which question, person, device or machine, from which device and address, and when; a
 * refused attempt is marked. "Load more" pages back by the hub's `nextBefore`.
 */
export function AuditList({ pairing }: { pairing: Pairing }) {
  const { t, lang } = useI18n();
  const now = useNow('minute');
  const { interactions } = useRemote().host;
  // The record names a question by its tool; what it asked is here when this device knows the question.
  const questionTitle = (requestId: string) => {
    const view = interactions.get(requestId);
    return view?.kind === 'question' ? view.input.questions[0]?.question : undefined;
  };
  const [lines, setLines] = useState<readonly AuditLine[]>([]);
  const [nextBefore, setNextBefore] = useState<number | undefined>(undefined);
  const [page, setPage] = useState<Page>({ phase: 'loading' });

  // Asks for a page; its answer (or failure) is set when it comes.
  const fetchPage = useCallback(
    (before: number | undefined) => {
      readAudit(pairing, before).then(
        (found) => {
          setLines((known) => {
            // A line already shown (the record moved on between pages) is not shown twice.
            const seen = new Set(known.map((line) => line.seq));
            return before === undefined ? found.entries : [...known, ...found.entries.filter((l) => !seen.has(l.seq))];
          });
          setNextBefore(found.nextBefore);
          setPage({ phase: 'ready' });
        },
        (failure: unknown) =>
          setPage({ phase: 'failed', message: failure instanceof Error ? failure.message : String(failure) }),
      );
    },
    [pairing],
  );
  useEffect(() => fetchPage(undefined), [fetchPage]);
  const load = (before: number | undefined) => {
    setPage({ phase: 'loading' });
    fetchPage(before);
  };

  return (
    <section className="audit" aria-labelledby="audit-title" data-testid="audit">
      <h2 id="audit-title" className="sr-only">
        {t('audit.title')}
      </h2>
      {lines.length > 0 ? (
        <ol className="audit__list" data-testid="audit.list">
          {lines.map((line) => (
            <li
              key={line.seq}
              className={`audit__item${line.outcome === 'refused' ? ' audit__item--refused' : ''}`}
              data-testid="audit.item"
              data-action={line.action}
              data-outcome={line.outcome}
            >
              <p className="audit__what">
                {line.outcome === 'refused' ? (
                  <span className="audit__refused" data-testid="audit.refused">
                    <IconAlert size={14} />
                    {t('audit.refused')}
                  </span>
                ) : null}
                <bdi>{auditSentence(line, t, questionTitle)}</bdi>
              </p>
              {line.detail ? <p className="audit__detail">{line.detail}</p> : null}
              <p className="audit__meta">
                <bdi>{auditSource(line, t)}</bdi>
                <time dateTime={line.at}>{now === 0 ? '' : formatStamp(line.at, lang, now)}</time>
              </p>
            </li>
          ))}
        </ol>
      ) : page.phase === 'ready' ? (
        <p className="empty" data-testid="audit.empty">
          {t('audit.empty')}
        </p>
      ) : null}
      {page.phase === 'loading' ? (
        <p className="state state--queued audit__status" role="status">
          {t('common.loading')}
        </p>
      ) : null}
      {page.phase === 'failed' ? (
        <div className="audit__status">
          <p className="form__error" role="alert" data-testid="audit.error">
            {t('audit.failed', { message: page.message })}
          </p>
          <button type="button" className="button" onClick={() => load(lines.length > 0 ? nextBefore : undefined)}>
            {t('team.tryAgain')}
          </button>
        </div>
      ) : null}
      {page.phase === 'ready' && nextBefore !== undefined ? (
        <button
          type="button"
          className="button button--block"
          onClick={() => load(nextBefore)}
          data-testid="audit.more"
        >
          {t('audit.loadMore')}
        </button>
      ) : null}
    </section>
  );
}
