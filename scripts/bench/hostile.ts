// `npm run bench:hostile`: what a hostile client gets from our services, on loopback only and bounded in time.
// Prints JSON: the data service's answers to bad input (goal: no 5xx), its swap routes' too on a seeded anvil with
// Uniswap V2 (goal: no 5xx; from a chain whose node fails, 502 or 503, never 500), forgeries accepted (goal: 0), the relay's
// RSS after a flood of topics and a slow reader (goal: under its stated bound) and RPC fallback p99 per fault.
// Exits 1 when a goal is missed.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ServiceChain } from '../../services/api/config'
import { openDatabase } from '../../services/api/db/createDatabase'
import { startApiServer } from '../../services/api/server'
import { startSwapChain } from '../../services/api/swap/testing/startSwapChain'
import { freePorts } from '../../services/stack/ports'
import { NATIVE_TOKEN_ADDRESS } from '../../src/shared/protocol/schemas/convert'
import { garbage, hang, httpStatus, rpcError, startFaultServer, wrongIds, type FaultHandler } from '../../src/worker/rpc-transport/faultServer'
import { benchApiInputs } from './hostile/api'
import { benchFallback } from './hostile/fallback'
import { benchNameForgeries, benchRelayForgeries, benchSessionForgeries } from './hostile/forgeries'
import { benchRelay } from './hostile/relay'

const ORIGIN = 'http://site.test'

async function benchDataService() {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-hostile-'))
  const server = await startApiServer({
    port: (await freePorts()).api,
    db: await openDatabase({ dataDir }),
    projects: [{ id: 'hostile', allowedOrigins: [ORIGIN] }, { id: 'twin', allowedOrigins: [ORIGIN] }],
    chains: [],
  })
  try {
    const inputs = await benchApiInputs(server.url, 'hostile', ORIGIN)
    const sessions = await benchSessionForgeries({ baseUrl: server.url, projectId: 'hostile', twinProjectId: 'twin', origin: ORIGIN })
    const names = await benchNameForgeries({ baseUrl: server.url, projectId: 'hostile', origin: ORIGIN })
    return { inputs, sessions, names }
  } finally {
    await server.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

type Status = number | 'network-error'
type Tally = { requests: number; status: Record<string, number> }

/**
 * The convert routes (/v1/convert/*) under hostile input, against a seeded anvil with Uniswap V2 (a few hundred
 * requests, 4 at a time): every field of every route broken in turn (NUL, lone surrogates, overlong, huge or negative
 * amounts, wrong JSON types, deep JSON, bad CAIP ids, slippage out of range), plus a flood of distinct amounts (each a
 * quote of its own) and every route on chains whose node is stopped, hangs, or answers garbage, an error, HTTP 500 or
 * wrong ids. Goals: no 5xx but from the failing nodes, and from those never a 500 nor silence (502 or 503, or a 200
 * when a wrong-ids node's answer is plausible).
 */
async function benchConvertInputs() {
  const ports = await freePorts()
  const swapChain = await startSwapChain({ port: ports.anvil })
  const faults: Record<string, FaultHandler> = {
    hanging: hang(),
    garbage: garbage(),
    rpcError: rpcError(-32000, 'header not found'),
    http500: httpStatus(500),
    wrongIds: wrongIds((ids) => ids.map((id) => id + 1)),
  }
  const faultServers = await Promise.all(Object.values(faults).map((handler) => startFaultServer(handler)))
  const faultyChains: [string, ServiceChain][] = [
    ['stopped', { ...swapChain.chain, chainId: 41_000, name: 'Stopped', rpcUrl: `http://127.0.0.1:${ports.anvil2}` }],
    ...Object.keys(faults).map((name, i): [string, ServiceChain] => [name, { ...swapChain.chain, chainId: 41_001 + i, name, rpcUrl: faultServers[i]!.url }]),
  ]
  const db = await openDatabase({})
  const server = await startApiServer({
    port: ports.api,
    db,
    projects: [{ id: 'hostile', allowedOrigins: [ORIGIN] }],
    chains: [swapChain.chain, ...faultyChains.map(([, chain]) => chain)],
    indexerPollIntervalMs: 60_000,
    log: () => {},
  })
  try {
    const send = async (path: string, init: RequestInit = {}): Promise<Status> => {
      try {
        const response = await fetch(`${server.url}${path}${path.includes('?') ? '&' : '?'}projectId=hostile`, { ...init, headers: { origin: ORIGIN, ...init.headers }, signal: AbortSignal.timeout(30_000) })
        await response.arrayBuffer()
        return response.status
      } catch {
        return 'network-error'
      }
    }
    // Query values go in raw (already percent-encoded where they must be), so broken encodings reach the service.
    const get = (route: string, params: Record<string, string>) => () => send(`/v1/convert/${route}?${Object.entries(params).map(([k, v]) => `${k}=${v}`).join('&')}`)
    const post = (body: unknown) => () => send('/v1/convert/build-transaction', { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) })

    const caip = (chainId: number, address: string) => encodeURIComponent(`eip155:${chainId}:${address}`)
    const [tusd, tsr] = swapChain.seeded.tokens.map((t) => t.address) as [string, string]
    const owner = swapChain.seeded.devAccounts[1]!
    const valid = {
      quotes: { from: caip(31337, NATIVE_TOKEN_ADDRESS), to: caip(31337, tusd), amount: '1000000000000000', userAddress: owner },
      allowance: { tokenAddress: caip(31337, tusd), userAddress: owner },
      'build-approve': { userAddress: owner, from: caip(31337, tusd), to: caip(31337, tsr), amount: '1000' },
      tokens: { chainId: 'eip155:31337' },
      'gas-price': { chainId: 'eip155:31337' },
    } as Record<string, Record<string, string>>
    const body = { amount: '1000000000000000', from: `eip155:31337:${NATIVE_TOKEN_ADDRESS}`, to: `eip155:31337:${tusd}`, userAddress: owner, eip155: { slippage: 1 }, disableEstimate: true }
    const everyQueryField = (value: (original: string) => string) => Object.entries(valid).flatMap(([route, params]) => Object.keys(params).map((field) => get(route, { ...params, [field]: value(params[field]!) })))
    const everyBodyField = (value: (original: unknown) => unknown) => [...Object.keys(body), 'eip155.slippage'].map((field) =>
      post(field === 'eip155.slippage' ? { ...body, eip155: { slippage: value(1) } } : { ...body, [field]: value(body[field as keyof typeof body]) }),
    )

    const classes: Record<string, (() => Promise<Status>)[]> = {
      validBaseline: [...Object.entries(valid).map(([route, params]) => get(route, params)), post(body)],
      nul: [...everyQueryField((v) => `${v}%00`), ...everyBodyField((v) => `${String(v)}\u0000`)],
      loneSurrogates: [...everyQueryField((v) => `%ED%A0%80${v}`), ...everyBodyField((v) => `\ud800${String(v)}`)],
      invalidPercentEncoding: ['%C0%80', '%FF', '%E0%A4%A', '%uD800'].flatMap((bad) => everyQueryField(() => bad)),
      tooLong: [300, 16_000].flatMap((length) => [...everyQueryField((v) => v.padEnd(length, '1')), ...everyBodyField((v) => String(v).padEnd(length, '1'))]),
      hugeOrOddAmounts: [String(2n ** 256n), `1${'0'.repeat(78)}`, '9'.repeat(10_000), '-1', '0', '1.5', '1e18', '0x10', '%201', '%EF%BC%91', '00000000000000000001'].flatMap((amount) => [
        get('quotes', { ...valid.quotes!, amount }),
        get('build-approve', { ...valid['build-approve']!, amount }),
        post({ ...body, amount: decodeURIComponent(amount.replace(/%(?![0-9A-F]{2})/g, '%25')) }),
      ]),
      rawJsonNumbers: ['1e400', '-1e400', '1e308', '-0', '115792089237316195423570985008687907853269984665640564039457584007913129639936'].flatMap((n) => [
        post(JSON.stringify(body).replace('"amount":"1000000000000000"', `"amount":${n}`)),
        post(JSON.stringify(body).replace('"slippage":1', `"slippage":${n}`)),
      ]),
      slippage: [0, 0.049, 50.001, -1, 1e-300, 'NaN', 'Infinity', '0x10', '1e1', ' 1', ''].map((slippage) => post({ ...body, eip155: { slippage } })),
      badTokenIds: [
        'ETH', 'eip155:31337', 'eip155:31337:0x', 'eip155:31337:0x1234', `eip155:31337:0x${'g'.repeat(40)}`, `eip155:31337:0x${'a'.repeat(128)}`, `eip155:${'9'.repeat(32)}:${tusd}`, `eip155:1:${tusd}`,
        'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:So11111111111111111111111111111111111111112', `eip155:31337:0x${'0'.repeat(39)}1`, `eip155:31337:${tusd}:extra`,
      ].flatMap((id) => [
        get('quotes', { ...valid.quotes!, to: encodeURIComponent(id) }),
        get('allowance', { ...valid.allowance!, tokenAddress: encodeURIComponent(id) }),
        get('build-approve', { ...valid['build-approve']!, from: encodeURIComponent(id) }),
        post({ ...body, from: id }),
      ]),
      sameTokenBothSides: [get('quotes', { ...valid.quotes!, to: valid.quotes!.from! }), get('build-approve', { ...valid['build-approve']!, to: valid['build-approve']!.from! }), post({ ...body, to: body.from })],
      badNetworks: ['eip155', 'eip155:0', 'eip155:-1', `eip155:${'9'.repeat(40)}`, '1e400', 'a:b:c', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'].flatMap((chainId) => [get('tokens', { chainId }), get('gas-price', { chainId })]),
      wrongJsonTypes: [
        ...[[], null, 'text', 1, true, {}].map((whole) => post(JSON.stringify(whole))),
        ...everyBodyField(() => 1), ...everyBodyField(() => null), ...everyBodyField(() => []), ...everyBodyField(() => ({})),
      ],
      invalidJson: ['{', '{"amount":1,}', '\ufeff{}', ''].map((raw) => post(raw)),
      deepJson: [17, 1_000].map((depth) => post({ ...body, eip155: JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`) })),
      repeatedParameters: [get('quotes', { ...valid.quotes!, amount: `1&amount=2&amount=${'9'.repeat(100)}` }), get('tokens', { chainId: 'eip155:31337&chainId=eip155:1' })],
      // Each its own quote (another amount): the cache keeps at most its bound of them.
      distinctAmountFlood: Array.from({ length: 2_000 }, (_, i) => get('quotes', { ...valid.quotes!, amount: String(10n ** 15n + BigInt(i)) })),
    }
    const failingNodes = faultyChains.flatMap(([name, chain]) => {
      const on = (address: string) => caip(chain.chainId, address)
      return [
        [name, get('quotes', { ...valid.quotes!, from: on(NATIVE_TOKEN_ADDRESS), to: on(tusd) })],
        [name, get('allowance', { tokenAddress: on(tusd), userAddress: owner })],
        [name, get('build-approve', { ...valid['build-approve']!, from: on(tusd), to: on(tsr) })],
        [name, get('gas-price', { chainId: `eip155:${chain.chainId}` })],
        [name, post({ ...body, from: `eip155:${chain.chainId}:${NATIVE_TOKEN_ADDRESS}`, to: `eip155:${chain.chainId}:${tusd}` })],
      ] as const
    })

    const count = async (sends: (() => Promise<Status>)[], tally: Tally) => {
      const statuses: Status[] = []
      for (let i = 0; i < sends.length; i += 4) statuses.push(...(await Promise.all(sends.slice(i, i + 4).map((run) => run()))))
      for (const status of statuses) {
        tally.requests++
        tally.status[String(status)] = (tally.status[String(status)] ?? 0) + 1
      }
      return statuses
    }
    const byClass: Record<string, Tally> = {}
    let requests = 0
    let status5xx = 0
    let baselineFailures = 0
    for (const [name, sends] of Object.entries(classes)) {
      const statuses = await count(sends, (byClass[name] = { requests: 0, status: {} }))
      requests += statuses.length
      status5xx += statuses.filter((status) => typeof status === 'number' && status >= 500).length
      if (name === 'validBaseline' || name === 'distinctAmountFlood') baselineFailures += statuses.filter((status) => status !== 200).length
    }
    // The failing nodes all at once (a hanging node holds its requests for the provider's RPC timeout).
    const byNode: Record<string, Tally> = {}
    const started = performance.now()
    const nodeStatuses = await Promise.all(failingNodes.map(async ([name, run]) => {
      const status = await run()
      const tally = (byNode[name] ??= { requests: 0, status: {} })
      tally.requests++
      tally.status[String(status)] = (tally.status[String(status)] ?? 0) + 1
      return status
    }))
    const failingNodesS = Math.round((performance.now() - started) / 100) / 10
    // A node answering with other requests' ids answers plausible numbers to some calls (eth_gasPrice: 0x1): a 200 then
    // is the node's word, not ours to refuse. What must never come is a 500, or no answer at all.
    const unanswered = nodeStatuses.filter((status) => status === 'network-error' || status === 500).length
    return { requests, status5xx, baselineFailures, byClass, failingNodes: { requests: nodeStatuses.length, status500OrNone: unanswered, allAnsweredInS: failingNodesS, byNode } }
  } finally {
    await server.stop()
    await Promise.all(faultServers.map((fault) => fault.close()))
    await swapChain.stop()
  }
}

const { inputs, sessions, names } = await benchDataService()
const convert = await benchConvertInputs()
const relayJwts = await benchRelayForgeries()
const forgeries = { attempts: sessions.attempts + names.attempts + relayJwts.attempts, accepted: sessions.accepted + names.accepted + relayJwts.accepted, sessions, names, relayJwts }
const relay = await benchRelay()
const fallback = await benchFallback()
const goals = {
  dataService5xx: inputs.status5xx === 0,
  convert5xx: convert.status5xx === 0 && convert.baselineFailures === 0 && convert.failingNodes.status500OrNone === 0,
  forgeriesAccepted: forgeries.accepted === 0,
  relayRssUnderBound: relay.relayRssMbAfterFlood <= relay.rssBoundMb && relay.relayRssMbAfterSlowReader <= relay.rssBoundMb,
  fallbackP99: fallback.meetsTargets,
}
console.log(JSON.stringify({ dataService: inputs, convert, forgeries, relay, fallback, goals }, null, 2))
process.exit(Object.values(goals).every(Boolean) ? 0 : 1)
