import nodemailer from 'nodemailer'

export type OutgoingMail = { to: string; subject: string; text: string }

/** Sends the service's mails; `send` rejects when the mail server did not take the mail. */
export type Mailer = { send: (mail: OutgoingMail) => Promise<void>; close: () => void }

/**
 * A mailer over SMTP with nodemailer: any server named by a URL (`smtp://user:pass@host:587`, `smtps://…:465`), the
 * local capture in dev and tests. Each step of a delivery gives up after `timeoutMs`.
 * @example createSmtpMailer({ smtpUrl: process.env.TESSERA_SMTP_URL, from: 'Tessera <no-reply@example.org>' })
 */
export function createSmtpMailer({ smtpUrl, from, timeoutMs = 10_000 }: { smtpUrl: string; from: string; timeoutMs?: number }): Mailer {
  const transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs } as Parameters<typeof nodemailer.createTransport>[0])
  return {
    async send({ to, subject, text }) {
      await transport.sendMail({ from, to, subject, text })
    },
    close: () => transport.close(),
  }
}

const minutes = (ms: number) => Math.round(ms / 60_000)

/** The texts of the service's mails: plain text only (nothing from a request is ever put into HTML). */
export const mailTexts = {
  code: ({ code, ttlMs }: { code: string; ttlMs: number }): Omit<OutgoingMail, 'to'> => ({
    subject: `${code} is your sign-in code`,
    text: `Your sign-in code is ${code}\n\nEnter it where you asked for it. It works once and expires in ${minutes(ttlMs)} minutes.\n\nIf you did not ask to sign in, ignore this e-mail: nobody can sign in without the code.\n`,
  }),
  device: ({ link, ttlMs }: { link: string; ttlMs: number }): Omit<OutgoingMail, 'to'> => ({
    subject: 'Approve sign-in on a new device',
    text: `Someone asked to sign in with this e-mail address on a device we have not seen before.\n\nIf it was you, open this link and approve the device; a sign-in code follows:\n${link}\n\nThe link expires in ${minutes(ttlMs)} minutes. If it was not you, ignore this e-mail.\n`,
  }),
  changePrimary: ({ code, newEmail, ttlMs }: { code: string; newEmail: string; ttlMs: number }): Omit<OutgoingMail, 'to'> => ({
    subject: `${code} confirms your e-mail change`,
    text: `You asked to change the e-mail address of your account to ${newEmail}.\n\nYour code to confirm is ${code}\n\nIt works once and expires in ${minutes(ttlMs)} minutes. If you did not ask for this, ignore this e-mail: your address stays as it is.\n`,
  }),
  changeSecondary: ({ code, ttlMs }: { code: string; ttlMs: number }): Omit<OutgoingMail, 'to'> => ({
    subject: `${code} confirms your new e-mail address`,
    text: `Your code to confirm this address for your account is ${code}\n\nIt works once and expires in ${minutes(ttlMs)} minutes. If you did not ask for this, ignore this e-mail.\n`,
  }),
}
