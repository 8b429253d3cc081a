// The part of oidc-provider 9's API the local identity providers use (the package ships no types, and
// @types/oidc-provider is not installed). Shapes follow the package's README and lib/provider.js.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  export type InteractionDetails = {
    uid: string
    prompt: { name: 'login' | 'consent' | string; reasons: string[]; details: { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> } }
    params: Record<string, unknown> & { client_id?: string; scope?: string; redirect_uri?: string }
    session?: { accountId?: string; uid?: string }
    grantId?: string
    lastSubmission?: Record<string, unknown>
  }

  export class Grant {
    constructor(properties: { accountId: string; clientId: string })
    addOIDCScope(scope: string): void
    addOIDCClaims(claims: string[]): void
    addResourceScope(indicator: string, scope: string): void
    save(): Promise<string>
    static find(id: string): Promise<Grant | undefined>
  }

  export type Account = { accountId: string; claims: (use: string, scope: string) => Promise<Record<string, unknown>> | Record<string, unknown> }

  export class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>)
    readonly issuer: string
    proxy: boolean
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>
    Grant: typeof Grant
    Client: { find(id: string): Promise<{ clientId: string; clientName?: string } | undefined> }
    on(event: string, listener: (...args: unknown[]) => void): this
  }
  export default Provider
}
