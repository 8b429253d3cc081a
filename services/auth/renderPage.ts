const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/**
 * Text made safe for HTML element content and quoted attributes: the five characters HTML gives meaning to become
 * entities, so text from a request, a mail or a provider is shown as text, never parsed as markup.
 * @example escapeHtml('<b>hi</b>') // '&lt;b&gt;hi&lt;/b&gt;'
 */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => entities[char]!)

/** The headers every page of ours carries: no script unless its hash is listed, nothing remote, never framed. */
export const pageSecurityHeaders = ({ scriptHashes = [] }: { scriptHashes?: readonly string[] } = {}) => ({
  'content-security-policy': [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `script-src ${scriptHashes.length ? scriptHashes.map((hash) => `'${hash}'`).join(' ') : "'none'"}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
})

/**
 * A small self-contained page (login, consent, device approval, inbox). `title` is escaped here; `body` is HTML the
 * caller built, with every piece of outside text passed through {@link escapeHtml}.
 */
export function renderPage({ title, body, lang = 'en' }: { title: string; body: string; lang?: string }) {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:28rem;padding:0 1rem;color:#1b1b1f;background:#fafafa}
main{background:#fff;border:1px solid #ddd;border-radius:12px;padding:1.25rem 1.5rem}
h1{font-size:1.3rem;margin:0 0 .75rem}
label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input{width:100%;box-sizing:border-box;padding:.5rem;font:inherit;border:1px solid #bbb;border-radius:6px}
button{font:inherit;padding:.5rem 1rem;margin:1rem .5rem 0 0;border-radius:6px;border:1px solid #3b5bdb;background:#3b5bdb;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#3b5bdb}
.error{color:#b00020;font-weight:600}
.hint{color:#555;font-size:13px}
code{font:13px ui-monospace,monospace;background:#f0f0f3;padding:0 .25rem;border-radius:4px}
</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`
}
