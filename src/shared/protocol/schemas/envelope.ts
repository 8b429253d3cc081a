import * as z from 'zod/mini'

/** Messages from the worker's store to the main thread's mirror (snapshot, then per-entry patches). */
const slice = z.enum(['blockNumbers', 'balances', 'pendingTransactions', 'transportRanks'])

export const storeMessageSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('snapshot'), version: z.number().check(z.int(), z.nonnegative()), state: z.partialRecord(slice, z.record(z.string(), z.unknown())) }),
  z.object({
    kind: z.literal('patch'),
    version: z.number().check(z.int(), z.positive()),
    patches: z.array(z.object({ slice, set: z.record(z.string(), z.unknown()), remove: z.array(z.string()) })),
  }),
])

/** An error as it crosses a worker or frame boundary (see serializeError). */
export const serializedErrorSchema = z.object({
  name: z.string(),
  message: z.string(),
  code: z.optional(z.string()),
  rpcCode: z.optional(z.number()),
  shortMessage: z.optional(z.string()),
  details: z.optional(z.string()),
  field: z.optional(z.string()),
  status: z.optional(z.number()),
})
