/** The services an instance of `npm run services` runs, each behind a frontend of its own. */
export type ClusterServiceName = 'api' | 'relay' | 'auth' | 'paymaster'

export type ClusterService = {
  name: ClusterServiceName
  /** The port the balancer listens on for this service (API_PORT, RELAY_PORT, AUTH_PORT, PAYMASTER_PORT). */
  publicPort: number
  /** Each instance's address for this service, `host:port`, in instance order. */
  servers: readonly string[]
}

export type CreateHaproxyConfigParameters = {
  /** The interface the balancer listens on (HOST). */
  bindHost: string
  services: readonly ClusterService[]
  /** A Unix socket for HAProxy's runtime API (`show stat`, `show servers state`); none when left out. */
  statsSocket?: string
  /** How often each instance's `GET /ready` is asked. */
  checkIntervalMs?: number
  /** How long an open WebSocket may stay silent before the balancer closes it. */
  tunnelTimeoutMs?: number
}

/** A duration as HAProxy writes it: 3600000 → '1h', 1000 → '1s', 250 → '250ms'. */
const haproxyTime = (ms: number) => [['h', 3_600_000], ['m', 60_000], ['s', 1_000]].map(([unit, size]) => (ms % Number(size) === 0 ? `${ms / Number(size)}${unit}` : '')).find(Boolean) ?? `${ms}ms`

/**
 * How each service is balanced. The relay's clients hold a WebSocket for as long as the page is open: leastconn spreads
 * those, and the tunnel timeout (not the HTTP ones) applies once upgraded. A WebSocket stays on the instance that took
 * it for its whole life, and a reconnect may land on any other: every relay instance serves every topic from Redis, so
 * no cookie or source stickiness is needed. The data and auth services answer short requests on one shared database;
 * the paymaster's instances count sponsored gas in one shared Redis.
 */
const backendLines: Record<ClusterServiceName, (tunnelTimeoutMs: number) => string[]> = {
  api: () => ['balance roundrobin'],
  auth: () => ['balance roundrobin'],
  paymaster: () => ['balance roundrobin'],
  relay: (tunnelTimeoutMs) => [
    '# WebSockets: each stays on the instance that took it; a reconnect may land on any (all share Redis).',
    'balance leastconn',
    '# Once upgraded, a WebSocket may stay silent this long (the HTTP timeouts no longer apply).',
    `timeout tunnel ${haproxyTime(tunnelTimeoutMs)}`,
  ],
}

/**
 * The HAProxy (2.6) configuration that puts N instances of each service behind one port per service: health checks on
 * `GET /ready` (an instance that drains or lost its database or Redis answers 503 and gets nothing new), a request whose
 * instance refused the connection sent to another, WebSockets to the relay balanced by open connections.
 * @example createHaproxyConfig({ bindHost: '127.0.0.1', services: [{ name: 'api', publicPort: 8787, servers: ['127.0.0.1:20001', '127.0.0.1:20004'] }] })
 */
export function createHaproxyConfig({ bindHost, services, statsSocket, checkIntervalMs = 1_000, tunnelTimeoutMs = 3_600_000 }: CreateHaproxyConfigParameters): string {
  for (const service of services) {
    if (service.servers.length === 0) throw new Error(`The ${service.name} service has no instance to balance.`)
  }
  const sections = [
    [
      'global',
      'maxconn 4096',
      ...(statsSocket ? [`stats socket ${statsSocket} mode 600 level user`] : []),
    ],
    [
      'defaults',
      'mode http',
      '# A new connection to the instance per request: none is reused after the instance closed it as idle.',
      'option http-server-close',
      "# The visitor's address for per-IP limits: set the auth section's trustProxy and the data service's trustedProxies.",
      'option forwardfor',
      '# A connection refused (an instance just died, not yet marked down) is tried again on another instance.',
      'option redispatch',
      'retries 2',
      'timeout connect 2s',
      'timeout http-request 10s',
      "# Longer than the auth service's long polls (25 s).",
      'timeout client 60s',
      'timeout server 60s',
      'timeout check 3s',
      '# Two failed checks of GET /ready take an instance out (it drains, or lost its database or Redis); two passed bring it back.',
      `default-server inter ${haproxyTime(checkIntervalMs)} fall 2 rise 2`,
    ],
    ...services.flatMap(({ name, publicPort, servers }) => [
      [`frontend ${name}`, `bind ${bindHost}:${publicPort}`, `default_backend ${name}`],
      [
        `backend ${name}`,
        ...backendLines[name](tunnelTimeoutMs),
        'option httpchk GET /ready',
        'http-check expect status 200',
        ...servers.map((address, index) => `server ${name}${index + 1} ${address} check`),
      ],
    ]),
  ]
  return `${sections.map(([heading, ...lines]) => [heading, ...lines.map((line) => `    ${line}`)].join('\n')).join('\n\n')}\n`
}
