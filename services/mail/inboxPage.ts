import { escapeHtml } from '../auth/renderPage'
import type { CapturedMail } from './capturedMail'

/** At most `max` characters, with an ellipsis when cut (a mail body can be long). */
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text)

/**
 * The demo's inbox page: every captured mail, newest first, as escaped text (no HTML part is ever rendered, no script,
 * no remote resource). It reloads itself every 5 s.
 */
export function renderInboxPage(mails: readonly CapturedMail[], { smtpUrl }: { smtpUrl: string }) {
  const rows = mails
    .map(
      (mail) => `<article>
  <header><strong>${escapeHtml(cut(mail.subject || '(no subject)', 200))}</strong></header>
  <p class="meta">To ${escapeHtml(cut(mail.to.join(', '), 300))} · from ${escapeHtml(cut(mail.from, 200))} · <time datetime="${escapeHtml(mail.receivedAt)}">${escapeHtml(mail.receivedAt)}</time></p>
  <pre>${escapeHtml(cut(mail.text, 4_000))}</pre>
</article>`,
    )
    .join('\n')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="5">
<title>Tessera local inbox</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:46rem;padding:0 1rem;color:#1b1b1f;background:#fafafa}
article{background:#fff;border:1px solid #ddd;border-radius:8px;padding:.75rem 1rem;margin:.75rem 0}
.meta{color:#555;font-size:13px;margin:.25rem 0}
pre{white-space:pre-wrap;word-break:break-word;font:14px/1.4 ui-monospace,monospace;margin:.5rem 0 0}
</style>
</head>
<body>
<h1>Local inbox</h1>
<p>Mails sent to the local SMTP capture (${escapeHtml(smtpUrl)}) in development: sign-in codes and device approvals land here. ${mails.length === 0 ? 'Nothing yet: ask for a code in the demo and this page shows it within 5 seconds.' : `${mails.length} mail${mails.length === 1 ? '' : 's'}, newest first.`}</p>
${rows}
</body>
</html>
`
}
