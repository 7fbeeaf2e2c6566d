'use client';
import { useEffect, useState } from 'react';
import { UNSAFE_TAGS } from './unsafe-tags';
import '@/app/styles/decision.css';

async function render(markdown: string): Promise<string> {
  const [{ marked }, { default: DOMPurify }] = await Promise.all([import('marked'), import('dompurify')]);
  const html = await marked.parse(markdown, { gfm: true, breaks: false });
  // The plan comes from a model: sanitize, and keep it from loading anything.
  return DOMPurify.sanitize(html, {
    // Images too: a plan has no inline data to show, only addresses to fetch.
    FORBID_TAGS: [...UNSAFE_TAGS, 'img'],
    FORBID_ATTR: ['style', 'srcset'],
  });
}

/** Plan markdown: marked + DOMPurify, both loaded only when a plan is on screen. */
export function Markdown({ source }: { source: string }) {
  const [html, setHtml] = useState<{ source: string; value: string } | null>(null);
  useEffect(() => {
    let live = true;
    void render(source).then((value) => {
      if (live) setHtml({ source, value });
    });
    return () => {
      live = false;
    };
  }, [source]);
  if (html?.source !== source) {
    return (
      <pre className="markdown markdown--raw" data-testid="card.plan">
        {source}
      </pre>
    );
  }
  return <div className="markdown" data-testid="card.plan" dangerouslySetInnerHTML={{ __html: html.value }} />;
}
