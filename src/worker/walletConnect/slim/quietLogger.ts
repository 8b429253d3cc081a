/**
 * `@walletconnect/logger` as the WalletConnect worker uses it: the sign client is started with `logger: 'silent'`, and
 * this logger drops every line. The original builds a pino logger at level "trace" whatever level is asked, serialises
 * every line to JSON and keeps up to 1 MB of them in memory for `getLogsBlob`; here nothing is kept
 * (`chunkLoggerController` is null, which the sign client already allows). The build swaps the package for this file
 * (vite.aliases.ts); the exports and their contract (the context key, child contexts joined by '/') are the original's.
 */

export const PINO_CUSTOM_CONTEXT_KEY = 'custom_context'
export const MAX_LOG_SIZE_IN_BYTES_DEFAULT = 1000 * 1024
export const PINO_LOGGER_DEFAULTS = { level: 'info' }

type LoggerOptions = { level?: string; [option: string]: unknown }

export type Logger = {
  level: string
  trace: (...args: unknown[]) => void
  debug: (...args: unknown[]) => void
  info: (...args: unknown[]) => void
  warn: (...args: unknown[]) => void
  error: (...args: unknown[]) => void
  fatal: (...args: unknown[]) => void
  silent: (...args: unknown[]) => void
  child: (bindings: Record<string, unknown>) => Logger
  bindings: () => Record<string, unknown>
  [contextKey: string]: unknown
}

const drop = () => {}

/** A logger that writes nothing, with pino's methods. */
export function pino(options: LoggerOptions = {}, bindings: Record<string, unknown> = {}): Logger {
  const level = options.level ?? PINO_LOGGER_DEFAULTS.level
  return {
    level,
    trace: drop,
    debug: drop,
    info: drop,
    warn: drop,
    error: drop,
    fatal: drop,
    silent: drop,
    child: (more) => pino({ level }, { ...bindings, ...more }),
    bindings: () => bindings,
  }
}

export const getDefaultLoggerOptions = (opts?: LoggerOptions): LoggerOptions => ({ ...opts, level: opts?.level || PINO_LOGGER_DEFAULTS.level })

export function setLoggerContext(logger: Logger, context: string, customContextKey = PINO_CUSTOM_CONTEXT_KEY): Logger {
  logger[customContextKey] = context
  return logger
}

export const getLoggerContext = (logger: Logger, customContextKey = PINO_CUSTOM_CONTEXT_KEY): string => (logger[customContextKey] as string | undefined) || ''

export function formatChildLoggerContext(logger: Logger, childContext: string, customContextKey = PINO_CUSTOM_CONTEXT_KEY): string {
  const parent = getLoggerContext(logger, customContextKey)
  return parent.trim() ? `${parent}/${childContext}` : childContext
}

export function generateChildLogger(logger: Logger, childContext: string, customContextKey = PINO_CUSTOM_CONTEXT_KEY): Logger {
  const context = formatChildLoggerContext(logger, childContext, customContextKey)
  return setLoggerContext(logger.child({ context }), context, customContextKey)
}

type PlatformLoggerParameters = { opts?: LoggerOptions; maxSizeInBytes?: number; loggerOverride?: string | Logger }

/** A quiet logger at the level asked, or the caller's own logger; no log chunks are kept. */
export function generatePlatformLogger({ opts, loggerOverride }: PlatformLoggerParameters): { logger: Logger; chunkLoggerController: null } {
  if (loggerOverride !== undefined && typeof loggerOverride !== 'string') return { logger: loggerOverride, chunkLoggerController: null }
  return { logger: pino({ ...opts, level: typeof loggerOverride === 'string' ? loggerOverride : opts?.level }), chunkLoggerController: null }
}

export const generateClientLogger = ({ opts }: { opts?: LoggerOptions }) => generatePlatformLogger({ opts })
export const generateServerLogger = ({ opts }: { opts?: LoggerOptions }) => generatePlatformLogger({ opts })
