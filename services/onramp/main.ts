// The on-ramp sandbox on its own (`tsx services/onramp/main.ts`): its configuration from the JSON file that
// TESSERA_ONRAMP_CONFIG names, or as JSON in TESSERA_ONRAMP_CONFIG_JSON. HOST and PORT from the environment, a line
// with its URL once it listens; it leaves with a parent process that started it over IPC.
import { readFileSync } from 'node:fs'
import { OnrampSandboxConfigError } from './config'
import { startOnrampSandbox } from './server'

const fail = (message: string): never => {
  console.error(message)
  process.exit(1)
}

const port = Number(process.env.PORT ?? 8794)
if (!Number.isInteger(port) || port < 0 || port > 65_535) fail(`PORT must be a port number from 0 to 65535, got "${process.env.PORT}".`)

const { TESSERA_ONRAMP_CONFIG: configPath, TESSERA_ONRAMP_CONFIG_JSON: configJson } = process.env
if (!configPath && !configJson) {
  fail('Set TESSERA_ONRAMP_CONFIG to a JSON file (or TESSERA_ONRAMP_CONFIG_JSON to JSON) with { partners, prices, assets, treasuries, publicUrl?, fiat?, countries?, limits? }.')
}
let config: Record<string, unknown> = {}
try {
  config = JSON.parse(configPath ? readFileSync(configPath, 'utf8') : configJson!) as Record<string, unknown>
} catch (error) {
  // The file's text is not shown: it holds treasury keys, API keys and webhook secrets.
  fail(`The on-ramp sandbox configuration ${configPath ? `in ${configPath} ` : ''}could not be read as JSON (${(error as NodeJS.ErrnoException).code ?? 'a syntax error'}).`)
}
if (typeof config !== 'object' || config === null || Array.isArray(config)) fail('The on-ramp sandbox configuration must be a JSON object.')

let server: Awaited<ReturnType<typeof startOnrampSandbox>>
try {
  server = await startOnrampSandbox({ ...(config as Parameters<typeof startOnrampSandbox>[0]), host: process.env.HOST ?? '127.0.0.1', port })
} catch (error) {
  if (error instanceof OnrampSandboxConfigError) fail(error.message)
  throw error
}
// Ready to leave before saying it listens: a parent may stop it as soon as it reads the line.
const stop = () => void server.stop().then(() => process.exit(0))
process.on('disconnect', stop)
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, stop)
console.log(`Tessera on-ramp sandbox on ${server.url} (checkout pages on ${server.publicUrl})`)
