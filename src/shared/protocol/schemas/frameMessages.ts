import * as z from 'zod/mini'
import { createWidgetError } from '../errors'
import { isEmail } from '../rules'
import { parseOrThrow } from './parse'
import { accountTypeSchema, socialProviderSchema, themeModeSchema, userSchema } from './entities'

/**
 * The secure frame's messages (SPEC §7): each request `{ id, type: 'APP_…', payload }`, each reply
 * `{ id, type: 'FRAME_…_SUCCESS' | 'FRAME_…_ERROR', payload }` with the same id (APP_X is answered by FRAME_X_*).
 */

const email = z.string().check(z.refine(isEmail, 'Invalid email address'))
const otp = z.string().check(z.regex(/^\d{6}$/, 'Expected a 6-digit code'))
const chainId = z.union([z.string().check(z.minLength(1)), z.number()])
const empty = z.optional(z.object({}))

/** The payload of each request the app sends, by event name. */
export const appRequestPayloads = {
  APP_CONNECT_EMAIL: z.object({ email }),
  APP_CONNECT_DEVICE: empty,
  APP_CONNECT_OTP: z.object({ otp }),
  APP_CONNECT_SOCIAL: z.object({ uri: z.string().check(z.url()), preferredAccountType: z.optional(accountTypeSchema), chainId: z.optional(chainId) }),
  APP_GET_SOCIAL_REDIRECT_URI: z.object({ provider: socialProviderSchema }),
  APP_GET_FARCASTER_URI: empty,
  APP_CONNECT_FARCASTER: empty,
  APP_GET_USER: z.optional(z.object({ chainId: z.optional(chainId), preferredAccountType: z.optional(accountTypeSchema) })),
  APP_SIGN_OUT: empty,
  APP_IS_CONNECTED: empty,
  APP_GET_CHAIN_ID: empty,
  APP_SWITCH_NETWORK: z.object({ chainId }),
  APP_RPC_REQUEST: z.object({ method: z.string().check(z.minLength(1)), params: z.optional(z.unknown()), chainNamespace: z.optional(z.string()), chainId: z.optional(chainId) }),
  APP_UPDATE_EMAIL: z.object({ email }),
  APP_UPDATE_EMAIL_PRIMARY_OTP: z.object({ otp }),
  APP_UPDATE_EMAIL_SECONDARY_OTP: z.object({ otp }),
  APP_SYNC_THEME: z.object({ themeMode: z.optional(themeModeSchema), themeVariables: z.optional(z.record(z.string(), z.union([z.string(), z.number()]))) }),
  APP_SYNC_DAPP_DATA: z.object({
    projectId: z.string().check(z.minLength(1)),
    sdkVersion: z.string(),
    sdkType: z.string(),
    metadata: z.optional(z.object({ name: z.string(), description: z.optional(z.string()), url: z.optional(z.string()), icons: z.optional(z.array(z.string())) })),
  }),
  APP_GET_SMART_ACCOUNT_ENABLED_NETWORKS: empty,
  APP_INIT_SMART_ACCOUNT: empty,
  APP_SET_PREFERRED_ACCOUNT: z.object({ type: accountTypeSchema }),
  APP_RELOAD: empty,
} as const

export type AppEvent = keyof typeof appRequestPayloads
export const appEvents = Object.keys(appRequestPayloads) as AppEvent[]

const connectAction = z.object({ action: z.enum(['VERIFY_DEVICE', 'VERIFY_OTP', 'CONNECT']) })
const updateEmailAction = z.object({ action: z.enum(['VERIFY_PRIMARY_OTP', 'VERIFY_SECONDARY_OTP']) })

/** The payload of each SUCCESS reply, by the request it answers. */
export const frameSuccessPayloads: Record<AppEvent, z.ZodMiniType> = {
  APP_CONNECT_EMAIL: connectAction,
  APP_CONNECT_DEVICE: empty,
  APP_CONNECT_OTP: empty,
  APP_CONNECT_SOCIAL: userSchema,
  APP_GET_SOCIAL_REDIRECT_URI: z.object({ uri: z.string().check(z.url()) }),
  APP_GET_FARCASTER_URI: z.object({ url: z.string().check(z.url()) }),
  APP_CONNECT_FARCASTER: userSchema,
  APP_GET_USER: userSchema,
  APP_SIGN_OUT: empty,
  APP_IS_CONNECTED: z.object({ isConnected: z.boolean() }),
  APP_GET_CHAIN_ID: z.object({ chainId }),
  APP_SWITCH_NETWORK: z.object({ chainId }),
  APP_RPC_REQUEST: z.unknown(),
  APP_UPDATE_EMAIL: updateEmailAction,
  APP_UPDATE_EMAIL_PRIMARY_OTP: updateEmailAction,
  APP_UPDATE_EMAIL_SECONDARY_OTP: z.object({ newEmail: email }),
  APP_SYNC_THEME: empty,
  APP_SYNC_DAPP_DATA: empty,
  APP_GET_SMART_ACCOUNT_ENABLED_NETWORKS: z.object({ smartAccountEnabledNetworks: z.array(z.number()) }),
  APP_INIT_SMART_ACCOUNT: z.object({ address: z.string(), isDeployed: z.boolean() }),
  APP_SET_PREFERRED_ACCOUNT: z.object({ type: accountTypeSchema, address: z.string() }),
  APP_RELOAD: empty,
}

const requestId = z.string().check(z.minLength(1), z.maxLength(128))

/** The reply type for a request: APP_CONNECT_EMAIL → FRAME_CONNECT_EMAIL_SUCCESS / _ERROR. */
export const replyType = (event: AppEvent, outcome: 'SUCCESS' | 'ERROR') => `FRAME_${event.slice('APP_'.length)}_${outcome}` as const

/** Any request from the app to the frame. */
export const appRequestSchema = z.object({
  id: requestId,
  type: z.enum(appEvents as [AppEvent, ...AppEvent[]]),
  payload: z.optional(z.unknown()),
})

const replyTypes = appEvents.flatMap((event) => [replyType(event, 'SUCCESS'), replyType(event, 'ERROR')])

/** Any reply from the frame to the app. */
export const frameReplySchema = z.object({
  id: requestId,
  type: z.enum(replyTypes as [string, ...string[]]),
  payload: z.optional(z.unknown()),
})

/** An error reply: the sentence, and (from Tessera's frame) its stable code, JSON-RPC code and the sentence's values. */
export const frameErrorPayloadSchema = z.object({
  message: z.optional(z.string()),
  code: z.optional(z.string().check(z.maxLength(64))),
  rpcCode: z.optional(z.number().check(z.int())),
  params: z.optional(z.record(z.string().check(z.maxLength(32)), z.union([z.string().check(z.maxLength(200)), z.number()]))),
})

export type AppRequest = { id: string; type: AppEvent; payload?: unknown }
export type FrameReply = { id: string; type: string; payload?: unknown }

/** Checks a request from the app: its envelope, then its payload by event (SPEC §5 rules). */
export function parseAppRequest(value: unknown): AppRequest {
  const request = parseOrThrow(appRequestSchema, value, 'frame request')
  const payload = parseOrThrow(appRequestPayloads[request.type], request.payload, `${request.type} payload`, ['payload'])
  return { id: request.id, type: request.type, payload }
}

/** Checks a reply from the frame to the request `event`: success payloads by event, error payloads as { message }. */
export function parseFrameReply(value: unknown, event: AppEvent): { id: string; isError: boolean; payload: unknown } {
  const reply = parseOrThrow(frameReplySchema, value, 'frame reply')
  if (reply.type === replyType(event, 'ERROR')) {
    return { id: reply.id, isError: true, payload: parseOrThrow(frameErrorPayloadSchema, reply.payload ?? {}, `${reply.type} payload`, ['payload']) }
  }
  if (reply.type !== replyType(event, 'SUCCESS')) {
    throw createWidgetError('INVALID_MESSAGE', { field: 'type', details: `frame reply: type: expected a reply to ${event}, got ${reply.type}` })
  }
  return { id: reply.id, isError: false, payload: parseOrThrow(frameSuccessPayloads[event], reply.payload, `${reply.type} payload`, ['payload']) }
}
