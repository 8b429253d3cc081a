/**
 * A person at a local provider's pages, over plain HTTP with a cookie jar: follows the redirects, fills in the login
 * form, answers the consent page, and stops where the provider hands back to the app. Tests use it where a browser
 * is not needed (the e2e tests drive the same pages in Chromium).
 */
export type ProviderHandBack =
  /** response_mode=query: the URL the provider redirected to (the app's callback with code and state, or an error). */
  | { kind: 'redirect'; url: string }
  /** response_mode=form_post: the auto-submitted form the provider rendered, to POST to the app. */
  | { kind: 'form_post'; action: string; fields: Record<string, string> }

export type DriveOptions = {
  email: string
  password: string
  /** What the person does on the consent page (default allow), or on the login page (cancel). */
  consent?: 'allow' | 'cancel'
  cancelAtLogin?: boolean
  /** Every page seen, in order, for tests that look at them. */
  pages?: { url: string; status: number; html: string }[]
}

const decodeEntities = (text: string) => text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')

export function createCookieJar() {
  const cookies = new Map<string, string>()
  return {
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    take(response: Response) {
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';')
        const index = pair.indexOf('=')
        const name = pair.slice(0, index).trim()
        const value = pair.slice(index + 1).trim()
        const isExpired = /max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line)
        if (isExpired || value === '') cookies.delete(name)
        else cookies.set(name, value)
      }
    },
  }
}

/** Drives one authorization from `authorizationUrl` to the hand-back, as `email`/`password`. */
export async function driveProviderLogin(authorizationUrl: string, { email, password, consent = 'allow', cancelAtLogin = false, pages }: DriveOptions, jar = createCookieJar()): Promise<ProviderHandBack> {
  const providerOrigin = new URL(authorizationUrl).origin
  let next: { url: string; method: 'GET' | 'POST'; form?: Record<string, string> } = { url: authorizationUrl, method: 'GET' }
  for (let step = 0; step < 20; step++) {
    const response = await fetch(next.url, {
      method: next.method,
      redirect: 'manual',
      headers: { cookie: jar.header(), ...(next.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: next.form ? new URLSearchParams(next.form).toString() : undefined,
    })
    jar.take(response)
    const location = response.headers.get('location')
    if (response.status >= 300 && response.status < 400 && location) {
      const url = new URL(location, next.url).href
      if (new URL(url).origin !== providerOrigin) return { kind: 'redirect', url }
      next = { url, method: 'GET' }
      continue
    }
    const html = await response.text()
    pages?.push({ url: next.url, status: response.status, html })
    const formAction = (name: string) => {
      const match = new RegExp(`<form method="post" action="([^"]*/${name})"`).exec(html)
      return match ? new URL(decodeEntities(match[1]!), next.url).href : undefined
    }
    if (/<title>Submitting Callback<\/title>/.test(html)) {
      const action = decodeEntities(/<form method="post" action="([^"]+)"/.exec(html)![1]!)
      const fields = Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)].map((m) => [m[1]!, decodeEntities(m[2]!)]))
      return { kind: 'form_post', action, fields }
    }
    const login = formAction('login')
    if (login) {
      next = cancelAtLogin ? { url: formAction('abort')!, method: 'POST', form: {} } : { url: login, method: 'POST', form: { email, password } }
      if (response.status === 401) throw new Error(`The provider refused the login of ${email}`)
      continue
    }
    const confirm = formAction('confirm')
    if (confirm) {
      next = consent === 'allow' ? { url: confirm, method: 'POST', form: {} } : { url: formAction('abort')!, method: 'POST', form: {} }
      continue
    }
    throw new Error(`Unexpected page at ${next.url} (${response.status}): ${html.slice(0, 500)}`)
  }
  throw new Error('The provider did not hand back within 20 steps')
}
