'use client';
import { useI18n } from '@/hooks/use-i18n';
import { isHtmlPreview } from '@/lib/contracts/preview';
import { type DisplayOption } from '@/lib/client/question-model';
import { HtmlPreview } from './html-preview';

/** The preview of the focused or selected option (R9.4): text in a monospace box, HTML sandboxed. */
export function PreviewPane({ option }: { option: DisplayOption | undefined }) {
  const { t } = useI18n();
  const title = option ? t('preview.of', { label: option.text }) : t('preview.title');
  return (
    <section className="preview" aria-label={title} data-testid="card.preview" data-label={option?.label}>
      <h3 className="preview__title">{title}</h3>
      {option?.preview === undefined ? (
        <p className="preview__none">{t('preview.none')}</p>
      ) : isHtmlPreview(option.preview) ? (
        <HtmlPreview html={option.preview} title={title} />
      ) : (
        <pre className="preview__text" tabIndex={0}>
          {option.preview}
        </pre>
      )}
    </section>
  );
}
