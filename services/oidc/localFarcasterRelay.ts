import type { IncomingMessage, ServerResponse } from 'node:http'
import { createSiweMessage } from 'viem/siwe'
import { privateKeyToAccount } from 'viem/accounts'
import { escapeHtml, pageSecurityHeaders, renderPage } from '../auth/renderPage'
import type { DevFarcasterAccount } from './devAccounts'
import { readForm, readJson, sendHtml, sendJson } from './httpHelpers'

/** What a client of the relay asked for (the relying party's side of Sign In With Farcaster). */
type ChannelRequest = { siweUri: string; domain: string; nonce: string; notBefore?: string; expirationTime?: string; requestId?: string }

/** What the Farcaster client posted once its user signed. */
type ChannelAnswer = { message: string; signature: string; fid: number; username?: string; displayName?: string; bio?: string; pfpUrl?: string; custody?: string }

type Channel = { token: string; request: ChannelRequest; createdAt: number; answer?: ChannelAnswer }

export type LocalFarcasterRelayParameters = {
  /** Where the relay is served, e.g. `http://127.0.0.1:8792/farcaster`. */
  baseUrl: string
  accounts: readonly DevFarcasterAccount[]
  /** Channels kept at once (oldest dropped) and how long one lives. */
  maxChannels?: number
  channelTtlMs?: number
  now?: () => number
}

const MAX_FIELD = 512

/**
 * A local stand-in for the Farcaster Auth relay (relay.farcaster.xyz), with the same three calls, under `baseUrl`:
 * `POST /v1/channel` { siweUri, domain, nonce, notBefore?, expirationTime?, requestId? } → 201 { channelToken, url, nonce };
 * `GET /v1/channel/status` (Authorization: Bearer channelToken) → 202 { state: 'pending' } or 200 { state: 'completed',
 * message, signature, fid, username, … }; `POST /v1/channel/authenticate` (Bearer) { message, signature, fid, … }.
 * Its `url` opens a dev Farcaster client (`/connect`) that signs the Sign In With Farcaster message with a dev
 * account's custody key, the way a phone app would. Development only: it signs for whoever clicks.
 */
export function createLocalFarcasterRelay({ baseUrl, accounts, maxChannels = 1_000, channelTtlMs = 10 * 60_000, now = Date.now }: LocalFarcasterRelayParameters) {
  const channels = new Map<string, Channel>()
  const prune = () => {
    for (const [token, channel] of channels) if (now() - channel.createdAt > channelTtlMs) channels.delete(token)
    while (channels.size >= maxChannels) channels.delete(channels.keys().next().value!)
  }
  const channelOf = (req: IncomingMessage) => {
    const match = /^Bearer ([\w-]{16,64})$/.exec(req.headers.authorization ?? '')
    const channel = match ? channels.get(match[1]!) : undefined
    return channel && now() - channel.createdAt <= channelTtlMs ? channel : undefined
  }
  const isShortString = (value: unknown, max = MAX_FIELD): value is string => typeof value === 'string' && value.length > 0 && value.length <= max

  /** Signs the channel's message as `account`, as a Farcaster client does, and completes the channel. */
  const signAs = async (channel: Channel, account: DevFarcasterAccount) => {
    const custody = privateKeyToAccount(account.custodyPrivateKey)
    const message = createSiweMessage({
      domain: channel.request.domain,
      address: custody.address,
      statement: 'Farcaster Auth',
      uri: channel.request.siweUri,
      version: '1',
      chainId: 10,
      nonce: channel.request.nonce,
      issuedAt: new Date(now()),
      ...(channel.request.notBefore ? { notBefore: new Date(channel.request.notBefore) } : {}),
      ...(channel.request.expirationTime ? { expirationTime: new Date(channel.request.expirationTime) } : {}),
      ...(channel.request.requestId ? { requestId: channel.request.requestId } : {}),
      resources: [`farcaster://fid/${account.fid}`],
    })
    channel.answer = { message, signature: await custody.signMessage({ message }), fid: account.fid, username: account.username, displayName: account.displayName, custody: custody.address }
  }

  const connectUrl = (channel: Channel) => {
    const url = new URL(`${baseUrl}/connect`)
    url.searchParams.set('channelToken', channel.token)
    url.searchParams.set('nonce', channel.request.nonce)
    url.searchParams.set('siweUri', channel.request.siweUri)
    url.searchParams.set('domain', channel.request.domain)
    return url.href
  }

  const connectPage = (channel: Channel | undefined, notice?: string) => {
    if (!channel) return renderPage({ title: 'Sign in with Farcaster', body: '<p class="error">This sign-in request has expired. Start again from the app.</p>' })
    if (channel.answer) return renderPage({ title: 'Sign in with Farcaster', body: `<p>${escapeHtml(notice ?? `Signed in as @${channel.answer.username ?? channel.answer.fid}.`)} Go back to the app to continue.</p>` })
    const forms = accounts
      .map(
        (account) => `<form method="post" action="${escapeHtml(`${new URL(baseUrl).pathname}/connect`)}">
<input type="hidden" name="channelToken" value="${escapeHtml(channel.token)}">
<input type="hidden" name="fid" value="${account.fid}">
<button type="submit">Sign in as @${escapeHtml(account.username)}</button> <span class="hint">fid ${account.fid}</span>
</form>`,
      )
      .join('\n')
    return renderPage({
      title: 'Sign in with Farcaster',
      body: `<p><strong>${escapeHtml(channel.request.domain)}</strong> asks you to sign in with your Farcaster account.</p>
<p class="hint">Local development Farcaster client: it signs with a dev account's custody key.</p>
${forms}`,
    })
  }

  /** Handles a request whose path starts with the relay's base path; `path` is the rest. */
  return async function handle(req: IncomingMessage, res: ServerResponse, path: string) {
    if (req.method === 'POST' && path === '/v1/channel') {
      const body = await readJson(req)
      if (!body.ok) return sendJson(res, 400, { error: body.error })
      const request = body.value as Partial<ChannelRequest>
      if (!isShortString(request.siweUri) || !isShortString(request.domain, 253) || !isShortString(request.nonce, 64) || !/^[a-zA-Z0-9]{8,64}$/.test(request.nonce)) {
        return sendJson(res, 400, { error: 'siweUri, domain and an alphanumeric nonce of 8 to 64 characters are required' })
      }
      for (const key of ['notBefore', 'expirationTime', 'requestId'] as const) {
        if (request[key] !== undefined && (!isShortString(request[key], 64) || (key !== 'requestId' && Number.isNaN(Date.parse(request[key]))))) return sendJson(res, 400, { error: `${key} is not valid` })
      }
      prune()
      const channel: Channel = { token: crypto.randomUUID(), createdAt: now(), request: request as ChannelRequest }
      channels.set(channel.token, channel)
      return sendJson(res, 201, { channelToken: channel.token, url: connectUrl(channel), nonce: channel.request.nonce })
    }
    if (req.method === 'GET' && path === '/v1/channel/status') {
      const channel = channelOf(req)
      if (!channel) return sendJson(res, 401, { error: 'Unknown or expired channel' })
      if (!channel.answer) return sendJson(res, 202, { state: 'pending', nonce: channel.request.nonce, url: connectUrl(channel) })
      return sendJson(res, 200, { state: 'completed', nonce: channel.request.nonce, url: connectUrl(channel), ...channel.answer })
    }
    if (req.method === 'POST' && path === '/v1/channel/authenticate') {
      const channel = channelOf(req)
      if (!channel) return sendJson(res, 401, { error: 'Unknown or expired channel' })
      const body = await readJson(req)
      if (!body.ok) return sendJson(res, 400, { error: body.error })
      const answer = body.value as Partial<ChannelAnswer>
      if (!isShortString(answer.message, 4_096) || !isShortString(answer.signature, 1_024) || !Number.isSafeInteger(answer.fid)) return sendJson(res, 400, { error: 'message, signature and fid are required' })
      channel.answer = { message: answer.message, signature: answer.signature, fid: answer.fid!, ...(isShortString(answer.username, 64) ? { username: answer.username } : {}) }
      return sendJson(res, 201, { state: 'completed' })
    }
    if (path === '/connect' && (req.method === 'GET' || req.method === 'POST')) {
      if (req.method === 'GET') {
        const token = new URL(req.url ?? '/', 'http://x').searchParams.get('channelToken') ?? ''
        const channel = channels.get(token)
        return sendHtml(res, channel ? 200 : 404, connectPage(channel && now() - channel.createdAt <= channelTtlMs ? channel : undefined), pageSecurityHeaders())
      }
      const form = await readForm(req)
      const channel = form.ok ? channels.get(form.value.get('channelToken') ?? '') : undefined
      const account = form.ok ? accounts.find((a) => String(a.fid) === form.value.get('fid')) : undefined
      if (!channel || now() - channel.createdAt > channelTtlMs || !account) return sendHtml(res, 400, connectPage(undefined), pageSecurityHeaders())
      if (!channel.answer) await signAs(channel, account)
      return sendHtml(res, 200, connectPage(channel), pageSecurityHeaders())
    }
    return sendJson(res, 404, { error: `No route for ${req.method} ${path}` })
  }
}
