import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createHaproxyConfig, type CreateHaproxyConfigParameters } from './haproxyConfig'
import { haproxyBinary } from './runCluster'

/** Three instances of each service on three hosts, as docs/deploy.md shows it. */
const threeHosts: CreateHaproxyConfigParameters = {
  bindHost: '0.0.0.0',
  statsSocket: '/run/haproxy/tessera.sock',
  services: [
    { name: 'api', publicPort: 8787, servers: ['10.0.0.11:8787', '10.0.0.12:8787', '10.0.0.13:8787'] },
    { name: 'relay', publicPort: 8790, servers: ['10.0.0.11:8790', '10.0.0.12:8790', '10.0.0.13:8790'] },
    { name: 'auth', publicPort: 8791, servers: ['10.0.0.11:8791', '10.0.0.12:8791', '10.0.0.13:8791'] },
  ],
}

describe('createHaproxyConfig', () => {
  it('writes a frontend per service on its public port and a backend checking each instance on /ready; the relay by leastconn with a tunnel timeout', () => {
    expect(createHaproxyConfig(threeHosts)).toMatchInlineSnapshot(`
      "global
          maxconn 4096
          stats socket /run/haproxy/tessera.sock mode 600 level user

      defaults
          mode http
          # A new connection to the instance per request: none is reused after the instance closed it as idle.
          option http-server-close
          # The visitor's address for per-IP limits: set the auth section's trustProxy and the data service's trustedProxies.
          option forwardfor
          # A connection refused (an instance just died, not yet marked down) is tried again on another instance.
          option redispatch
          retries 2
          timeout connect 2s
          timeout http-request 10s
          # Longer than the auth service's long polls (25 s).
          timeout client 60s
          timeout server 60s
          timeout check 3s
          # Two failed checks of GET /ready take an instance out (it drains, or lost its database or Redis); two passed bring it back.
          default-server inter 1s fall 2 rise 2

      frontend api
          bind 0.0.0.0:8787
          default_backend api

      backend api
          balance roundrobin
          option httpchk GET /ready
          http-check expect status 200
          server api1 10.0.0.11:8787 check
          server api2 10.0.0.12:8787 check
          server api3 10.0.0.13:8787 check

      frontend relay
          bind 0.0.0.0:8790
          default_backend relay

      backend relay
          # WebSockets: each stays on the instance that took it; a reconnect may land on any (all share Redis).
          balance leastconn
          # Once upgraded, a WebSocket may stay silent this long (the HTTP timeouts no longer apply).
          timeout tunnel 1h
          option httpchk GET /ready
          http-check expect status 200
          server relay1 10.0.0.11:8790 check
          server relay2 10.0.0.12:8790 check
          server relay3 10.0.0.13:8790 check

      frontend auth
          bind 0.0.0.0:8791
          default_backend auth

      backend auth
          balance roundrobin
          option httpchk GET /ready
          http-check expect status 200
          server auth1 10.0.0.11:8791 check
          server auth2 10.0.0.12:8791 check
          server auth3 10.0.0.13:8791 check
      "
    `)
  })

  it('writes what HAProxy 2.6 accepts (haproxy -c), with its timing in its own units', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-haproxy-config-'))
    try {
      const config = createHaproxyConfig({ ...threeHosts, statsSocket: join(dir, 'haproxy.sock'), checkIntervalMs: 500, tunnelTimeoutMs: 90_000 })
      expect(config).toContain('default-server inter 500ms fall 2 rise 2')
      expect(config).toContain('timeout tunnel 90s')
      writeFileSync(join(dir, 'haproxy.cfg'), config)
      const check = spawnSync(haproxyBinary(process.env), ['-c', '-f', join(dir, 'haproxy.cfg')], { encoding: 'utf8' })
      expect(check.error?.message ?? 'ran', 'install haproxy (apt-get install -y haproxy; npm test does) or set HAPROXY').toBe('ran')
      expect({ status: check.status, stdout: check.stdout.trim() }).toEqual({ status: 0, stdout: 'Configuration file is valid' })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses a service with no instance to balance', () => {
    expect(() => createHaproxyConfig({ bindHost: '127.0.0.1', services: [{ name: 'relay', publicPort: 8790, servers: [] }] })).toThrow('The relay service has no instance to balance.')
  })
})
