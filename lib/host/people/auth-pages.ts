import { SIGN_IN_PATH } from './oidc-settings';

// The hub's own sign-in pages (R21.7): served before a browser is paired, so they cannot be the PWA's; they carry
// its look (the design tokens of app/styles/base.css) in a few inline rules and run no script.

const STYLE = `
:root{--bg:#f6f6f3;--surface:#fff;--border:#d6d6d1;--text:#1a1b1e;--text-2:#55585f;--accent:#1d5bd6;
--accent-text:#fff;--danger:#b3261e;--danger-soft:#fcebea;--radius:14px;--tap:44px;color-scheme:light dark;
--font:system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',sans-serif}
@media (prefers-color-scheme:dark){:root{--bg:#121316;--surface:#1b1d21;--border:#33363c;--text:#ebecef;
--text-2:#a5a9b2;--accent:#8cb1ff;--accent-text:#0b1630;--danger:#ff8f86;--danger-soft:#3a1f1d}}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;background:var(--bg);color:var(--text);font:16px/1.5 var(--font);
display:flex;align-items:flex-start;justify-content:center;padding:max(8vh,24px) 16px 24px}
main{width:100%;max-width:440px;background:var(--surface);border:1px solid var(--border);
border-radius:var(--radius);padding:24px}
h1{font-size:1.35rem;line-height:1.3;margin:0 0 12px}
p{margin:0 0 12px;color:var(--text-2)}
p strong{color:var(--text)}
.hub{font-size:.85rem;font-weight:600;letter-spacing:.02em;color:var(--text-2);margin:0 0 6px}
.button{display:flex;align-items:center;justify-content:center;min-height:var(--tap);padding:10px 18px;
border-radius:12px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-text);
font-weight:600;text-decoration:none;margin-top:20px}
.button:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.problem{border-left:4px solid var(--danger);background:var(--danger-soft);color:var(--text);
padding:10px 12px;border-radius:8px;margin:0 0 12px;overflow-wrap:anywhere}
`;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, hubName: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)} · Askaway</title><style>${STYLE}</style></head>
<body><main data-testid="auth.page">
<p class="hub">Askaway · ${escapeHtml(hubName)}</p>
${body}
</main></body>
</html>
`;
}

/** `GET /auth/sign-in`: what happens, and the way to the provider. */
export function signInPage(hubName: string, providerHost: string, startUrl: string): string {
  return page(
    'Sign in',
    hubName,
    `<h1>Sign in to answer your agents</h1>
<p>This hub signs people in at <strong>${escapeHtml(providerHost)}</strong>. Once you have, this browser is paired
as your device: the questions you answer here are answered as you.</p>
<a class="button" href="${escapeHtml(startUrl)}" data-testid="auth.continue">Continue to ${escapeHtml(providerHost)}</a>`,
  );
}

/** Why a sign-in did not end with a paired browser, and how to start again. */
export function problemPage(options: { hubName: string; title: string; problem: string; hint: string }): string {
  return page(
    options.title,
    options.hubName,
    `<h1>${escapeHtml(options.title)}</h1>
<p class="problem" role="alert" data-testid="auth.problem">${escapeHtml(options.problem)}</p>
<p>${escapeHtml(options.hint)}</p>
<a class="button" href="${SIGN_IN_PATH}" data-testid="auth.again">Start again</a>`,
  );
}
