// Zod-free, so the PWA can tell HTML previews from text without loading the schemas.

// The four preview checks of R2.6. Validation is only the
// first defence: every renderer sanitizes again with DOMPurify.
const HTML_TAG = /<\/?[a-z][a-z0-9-]*(?:\s[^<>]*)?\/?>/i;
const HTML_COMMENT_OR_DECL = /<!(?:--|doctype)/i;
const DOCUMENT_TAG = /<!doctype|<\/?(?:html|head|body)(?:[\s/>]|$)/i;
const FORBIDDEN_TAG = /<\/?(?:script|style)(?:[\s/>]|$)/i;

// A preview is "treated as HTML" when it opens like markup: `<` followed by a
// letter, `/` or `!`. Text that merely starts with `<` (`< 5 ms`, `<= 10 items`)
// stays text, like `a < b`.
const HTML_START = /^\s*<[a-z/!]/i;

/**
 * The R2.6 checks. Returns why a preview is refused, or null when it is fine.
 * A preview treated as HTML must contain a real tag, so a bare `<!-- note -->`
 * or an unterminated `<div` is refused rather than rendered as broken HTML.
 */
export function validateAskUserQuestionPreview(preview: string): string | null {
  const containsMarkup = HTML_TAG.test(preview) || HTML_COMMENT_OR_DECL.test(preview);
  if (containsMarkup && DOCUMENT_TAG.test(preview)) {
    return 'HTML previews must be fragments: no <!doctype>, <html>, <head> or <body>';
  }
  if (FORBIDDEN_TAG.test(preview)) {
    return 'Previews must not contain <script> or <style>';
  }
  if (HTML_START.test(preview) && !HTML_TAG.test(preview)) {
    return 'A preview treated as HTML must contain an HTML tag';
  }
  return null;
}

/** True when a (valid) preview should be rendered as sanitized HTML rather than text. */
export function isHtmlPreview(preview: string): boolean {
  return HTML_START.test(preview) && HTML_TAG.test(preview);
}
