'use client';
import { lazy, Suspense } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { isHtmlPreview } from '@/lib/contracts/preview';
import { type DisplayOption } from '@/lib/client/question-model';
import { PreviewText } from './preview-text';
import '@/lib/client/i18n-en-card';

// Loaded with the first HTML preview shown (it loads DOMPurify then anyway), not in the card's first screen.
const HtmlPreview = lazy(() => import('./html-preview').then((module) => ({ default: module.HtmlPreview })));

/** The preview of the focused or selected option (R9.4): text as written in a monospace box (R9.15), HTML sandboxed. */
export function PreviewPane({ option }: { option: DisplayOption | undefined }) {
  const { t } = useI18n();
  const title = option ? t('preview.of', { label: option.text }) : t('preview.title');
  return (
    <section className="preview" aria-label={title} data-testid="card.preview" data-label={option?.label}>
      <h3 className="preview__title">{title}</h3>
      {option?.preview === undefined ? (
        <p className="preview__none">{t('preview.none')}</p>
      ) : isHtmlPreview(option.preview) ? (
        <Suspense fallback={<div className="preview__frame preview__frame--loading" aria-hidden="true" />}>
          <HtmlPreview html={option.preview} title={title} />
        </Suspense>
      ) : (
        <PreviewText source={option.preview} />
      )}
    </section>
  );
}
