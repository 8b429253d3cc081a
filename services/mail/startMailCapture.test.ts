import nodemailer, { type SendMailOptions } from 'nodemailer'
import { afterEach, describe, expect, it } from 'vitest'
import { startMailCapture, type MailCapture, type MailCaptureLimits } from './startMailCapture'

const captures: MailCapture[] = []
afterEach(async () => {
  await Promise.all(captures.splice(0).map((c) => c.stop()))
})

const start = async (limits: Partial<MailCaptureLimits> = {}) => {
  const capture = await startMailCapture({ smtpPort: 0, httpPort: 0, limits, log: () => {} })
  captures.push(capture)
  return capture
}

/** Sends over a real SMTP connection, the way the auth service does. */
const send = (capture: MailCapture, mail: SendMailOptions) =>
  nodemailer.createTransport(capture.smtpUrl).sendMail({ from: 'Tessera <no-reply@tessera.test>', ...mail })

const inbox = async (capture: MailCapture, query = '') => (await (await fetch(`${capture.inboxUrl}/messages${query}`)).json()) as { messages: { id: string; to: string[]; subject: string; text: string; from: string }[] }

describe('mail capture', () => {
  it('keeps a mail sent over SMTP and finds it by recipient, whatever the case', async () => {
    const capture = await start()
    await send(capture, { to: 'Alice@Example.test', subject: '123456 is your code', text: 'Your code is 123456.' })
    await send(capture, { to: 'bob@example.test', subject: 'other', text: 'not for alice' })
    const { messages } = await inbox(capture, '?to=alice@example.test')
    expect(messages).toEqual([expect.objectContaining({ to: ['alice@example.test'], from: 'no-reply@tessera.test', subject: '123456 is your code', text: 'Your code is 123456.\n' })])
    expect((await inbox(capture, '?to=ALICE@EXAMPLE.TEST')).messages).toHaveLength(1)
    expect((await inbox(capture)).messages.map((m) => m.subject)).toEqual(['other', '123456 is your code'])
    const one = await fetch(`${capture.inboxUrl}/messages/${messages[0]!.id}`)
    expect(await one.json()).toMatchObject({ subject: '123456 is your code' })
    expect((await fetch(`${capture.inboxUrl}/messages/nope`)).status).toBe(404)
  })

  it('keeps at most its count of mails, dropping the oldest', async () => {
    const capture = await start({ maxMessages: 3 })
    for (let i = 1; i <= 5; i++) await send(capture, { to: 'a@example.test', subject: `mail ${i}`, text: 'x' })
    expect((await inbox(capture)).messages.map((m) => m.subject)).toEqual(['mail 5', 'mail 4', 'mail 3'])
  })

  it('keeps at most its total of bytes, dropping the oldest', async () => {
    const capture = await start({ maxTotalBytes: 2_500 })
    for (let i = 1; i <= 3; i++) await send(capture, { to: 'a@example.test', subject: `mail ${i}`, text: 'y'.repeat(1_000) })
    expect((await inbox(capture)).messages.map((m) => m.subject)).toEqual(['mail 3', 'mail 2'])
  })

  it('refuses a mail over its size with 552 and keeps nothing of it', async () => {
    const capture = await start({ maxMessageBytes: 2_048 })
    const error = await send(capture, { to: 'a@example.test', subject: 'big', text: 'z'.repeat(8_000) }).catch((e: unknown) => e)
    expect(error).toMatchObject({ responseCode: 552 })
    expect((await inbox(capture)).messages).toEqual([])
    await send(capture, { to: 'a@example.test', subject: 'small', text: 'ok' })
    expect((await inbox(capture)).messages).toHaveLength(1)
  })

  it('refuses recipients past its limit (452) and delivers to the rest', async () => {
    const capture = await start({ maxRecipients: 2 })
    const result = await send(capture, { to: ['a@example.test', 'b@example.test', 'c@example.test'], subject: 'many', text: 'x' })
    expect(result.rejected).toEqual(['c@example.test'])
    expect(result.rejectedErrors?.[0]).toMatchObject({ responseCode: 452 })
    expect((await inbox(capture)).messages.map((m) => m.to)).toEqual([['a@example.test', 'b@example.test']])
  })

  it('shows mails on a page as escaped text only: no markup from a mail, no script, a strict CSP', async () => {
    const capture = await start()
    await send(capture, {
      to: 'mallory@example.test',
      subject: '<img src=x onerror=alert(1)>',
      text: '</pre><script>alert("text")</script>',
      html: '<script>alert("html")</script><b>bold</b>',
    })
    const response = await fetch(`${capture.inboxUrl}/`)
    const page = await response.text()
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(page).toContain('&lt;/pre&gt;&lt;script&gt;alert(&quot;text&quot;)&lt;/script&gt;')
    expect(page).not.toMatch(/<script|<img|<b>bold/i)
    expect(page).not.toContain('alert("html")')
    // The HTML part is never kept: the JSON has the text part only.
    const [mail] = (await inbox(capture)).messages
    expect(Object.keys(mail!).sort()).toEqual(['from', 'id', 'receivedAt', 'subject', 'text', 'to'])
  })

  it('empties the mailbox on DELETE /messages', async () => {
    const capture = await start()
    await send(capture, { to: 'a@example.test', subject: 's', text: 't' })
    expect((await fetch(`${capture.inboxUrl}/messages`, { method: 'DELETE' })).status).toBe(204)
    expect((await inbox(capture)).messages).toEqual([])
  })
})
