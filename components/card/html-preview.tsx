'use client';
import { useEffect, useState } from 'react';

/**
 * Even if sanitizing missed something, this document can neither run script
 * (sandbox without allow-scripts) nor load anything (its own CSP) (R12.2).
 */
export const PREVIEW_CSP_META =
  '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'; img-src data:">';

const PREVIEW_STYLE =
  '<style>:root{color-scheme:light dark}body{margin:12px;font:14px/1.45 system-ui,sans-serif;overflow-wrap:anywhere}pre,code{font-family:ui-monospace,Menlo,Consolas,monospace}img{max-width:100%}</style>';

export function buildPreviewDocument(cleanHtml: string): string {
  return `${PREVIEW_CSP_META}${PREVIEW_STYLE}${cleanHtml}`;
}

async function sanitize(html: string): Promise<string> {
  const { default: DOMPurify } = await import('dompurify');
  return DOMPurify.sanitize(html, {
    FORBID_TAGS: ['style', 'script', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'frame', 'object', 'embed', 'link', 'meta', 'base', 'svg', 'math'],
    FORBID_ATTR: ['srcset', 'action', 'formaction', 'ping'],
    ALLOW_DATA_ATTR: false,
  });
}

/** An HTML preview: DOMPurify (loaded only now), then a sandboxed, CSP-locked iframe. */
export function HtmlPreview({ html, title }: { html: string; title: string }) {
  const [doc, setDoc] = useState<{ source: string; value: string } | null>(null);
  useEffect(() => {
    let live = true;
    void sanitize(html).then((clean) => {
      if (live) setDoc({ source: html, value: buildPreviewDocument(clean) });
    });
    return () => {
      live = false;
    };
  }, [html]);
  if (doc?.source !== html) return <div className="preview__frame preview__frame--loading" aria-hidden="true" />;
  return (
    <iframe
      className="preview__frame"
      sandbox=""
      srcDoc={doc.value}
      title={title}
      referrerPolicy="no-referrer"
      loading="lazy"
      data-testid="card.preview-frame"
    />
  );
}
