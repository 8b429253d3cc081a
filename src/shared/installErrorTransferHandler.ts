/** The part of comlink's transfer handler map we need (src/shared does not import comlink). */
type TransferHandlerMap = Map<string, { canHandle: (value: unknown) => boolean; serialize: (value: never) => [unknown, Transferable[]]; deserialize: (value: never) => unknown }>

type SerializedError = { name: string; message: string; stack?: string; code?: unknown; shortMessage?: unknown; details?: unknown; cause?: SerializedError }

function serialize(error: unknown, depth = 0): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) }
  const { name, message, stack } = error
  const fields = error as unknown as Record<string, unknown>
  return {
    name,
    message,
    stack,
    code: fields.code,
    shortMessage: fields.shortMessage,
    details: fields.details,
    cause: error.cause !== undefined && depth < 8 ? serialize(error.cause, depth + 1) : undefined,
  }
}

function revive(data: SerializedError): Error {
  const error = new Error(data.message, data.cause ? { cause: revive(data.cause) } : undefined)
  return Object.assign(error, { name: data.name, stack: data.stack, code: data.code, shortMessage: data.shortMessage, details: data.details })
}

/**
 * Replaces comlink's 'throw' handler so errors keep their `code`, `shortMessage`, `details` and `cause`
 * across the worker boundary (comlink alone keeps only name, message and stack).
 */
export function installErrorTransferHandler(handlers: TransferHandlerMap) {
  const original = handlers.get('throw')
  if (!original) throw new Error("comlink has no 'throw' transfer handler to replace")
  handlers.set('throw', {
    canHandle: original.canHandle,
    serialize: ({ value }: { value: unknown }) => [{ isError: value instanceof Error, value: value instanceof Error ? serialize(value) : value }, []],
    deserialize: (serialized: { isError: boolean; value: unknown }) => {
      throw serialized.isError ? revive(serialized.value as SerializedError) : serialized.value
    },
  })
}
