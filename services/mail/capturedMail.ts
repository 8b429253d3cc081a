/** One captured mail, as the inbox shows it: text only (an HTML part is never kept, so it is never rendered). */
export type CapturedMail = {
  id: string
  /** The envelope sender (MAIL FROM). */
  from: string
  /** The envelope recipients (RCPT TO), lowercased: what `GET /messages?to=` matches. */
  to: string[]
  subject: string
  text: string
  receivedAt: string
}
