/** Served for page routes while `out/` has no PWA build, so the host still starts and explains itself. */
export function fallbackPageHtml(staticDir: string): string {
  const escaped = staticDir.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Askaway</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5">
<h1>Askaway host is running</h1>
<p>The web app is not built yet: no files in <code>${escaped}</code>.</p>
<p>Run <code>npm run build</code>, then reload this page. The host and its socket.io endpoints already work.</p>
</body>
</html>
`;
}
