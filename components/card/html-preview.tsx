'use client';
import { type DOMPurify } from 'dompurify';
import { useEffect, useState } from 'react';
import { UNSAFE_TAGS } from './unsafe-tags';

/**
 * Even if sanitizing missed something, this document can neither run script
 * (sandbox without allow-scripts) nor load anything (its own CSP) (R12.2).
 */
export const PREVIEW_CSP_META =
  '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'; img-src data:">';

// Mockups are written against browser defaults (dark text on white), so the frame stays
// light in dark mode too; following the app's scheme made their text white on white.
const PREVIEW_STYLE =
  '<style>:root{color-scheme:light}body{margin:12px;background:#fff;color:#1b1c1f;font:14px/1.45 system-ui,sans-serif;overflow-wrap:anywhere}pre,code{font-family:ui-monospace,Menlo,Consolas,monospace}img{max-width:100%}</style>';

export function buildPreviewDocument(cleanHtml: string): string {
  return `${PREVIEW_CSP_META}${PREVIEW_STYLE}${cleanHtml}`;
}

// Attributes that make the browser fetch or navigate somewhere. A preview is a picture of a
// UI: links need not work, and images may only be inline data.
const URL_ATTRIBUTES = new Set([
  'href',
  'xlink:href',
  'action',
  'formaction',
  'background',
  'poster',
  'cite',
  'longdesc',
  'srcset',
  'ping',
  'data',
  'codebase',
  'manifest',
]);
const FETCHING_CSS = /url\s*\(|image-set|@import|expression\s*\(/i;

type Purifier = DOMPurify;
let purifier: Promise<Purifier> | null = null;

function previewPurifier(): Promise<Purifier> {
  purifier ??= import('dompurify').then(({ default: createDOMPurify }) => {
    // Its own instance, so these hooks never touch the plan renderer's sanitizer.
    const instance = createDOMPurify(window);
    instance.addHook('uponSanitizeAttribute', (_node, data) => {
      const name = data.attrName.toLowerCase();
      const value = data.attrValue.trim();
      if (URL_ATTRIBUTES.has(name)) data.keepAttr = false;
      else if (name === 'src' && !/^data:image\//i.test(value)) data.keepAttr = false;
      else if (name === 'style' && FETCHING_CSS.test(value)) data.keepAttr = false;
    });
    return instance;
  });
  return purifier;
}

export async function sanitizePreview(html: string): Promise<string> {
  const instance = await previewPurifier();
  return instance.sanitize(html, {
    FORBID_TAGS: UNSAFE_TAGS,
    ALLOW_DATA_ATTR: false,
  });
}

/** An HTML preview: DOMPurify (loaded only now), then a sandboxed, CSP-locked iframe. */
export function HtmlPreview({ html, title }: { html: string; title: string }) {
  const [doc, setDoc] = useState<{ source: string; value: string } | null>(null);
  useEffect(() => {
    let live = true;
    void sanitizePreview(html).then((clean) => {
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
