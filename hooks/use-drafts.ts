'use client';
import { useCallback, useEffect, useState } from 'react';
import { EMPTY_DRAFT, type QuestionDraft } from '@/lib/client/question-model';

const key = (requestId: string) => `askaway.draft.${requestId}`;

function load(requestId: string, count: number): QuestionDraft[] {
  const empty = Array.from({ length: count }, () => EMPTY_DRAFT);
  try {
    const raw = sessionStorage.getItem(key(requestId));
    if (!raw) return empty;
    const parsed = JSON.parse(raw) as unknown;
    if (!Array.isArray(parsed) || parsed.length !== count) return empty;
    return parsed.map((item: Partial<QuestionDraft>) => ({ ...EMPTY_DRAFT, ...item }));
  } catch {
    return empty;
  }
}

/** What a draft keeps across a reload: for a secret question (R18.5), whether it was skipped, never its text (R12.14). */
function storable(draft: QuestionDraft, secret: boolean): QuestionDraft {
  return secret ? { ...draft, otherText: '', value: '', note: '' } : draft;
}

/**
 * Per-question drafts that survive going back and forth and a reload (R9.11). `secret[i]`: question i is a
 * secret, whose text lives in memory only, so a reload asks for it again.
 */
export function useDrafts(requestId: string, count: number, secret: readonly boolean[] = []) {
  const [drafts, setDrafts] = useState<QuestionDraft[]>(() =>
    typeof window === 'undefined' ? Array.from({ length: count }, () => EMPTY_DRAFT) : load(requestId, count),
  );
  useEffect(() => {
    try {
      const kept = drafts.map((draft, index) => storable(draft, secret[index] === true));
      sessionStorage.setItem(key(requestId), JSON.stringify(kept));
    } catch {
      // storage full or unavailable: drafts still live in memory
    }
  }, [requestId, drafts, secret]);
  const setDraft = useCallback((index: number, draft: QuestionDraft) => {
    setDrafts((current) => current.map((item, i) => (i === index ? draft : item)));
  }, []);
  const clear = useCallback(() => {
    try {
      sessionStorage.removeItem(key(requestId));
    } catch {
      // nothing to clear
    }
  }, [requestId]);
  return { drafts, setDraft, clear };
}
