import { createAuthClient } from './auth/createAuthClient'
import { createSessionStore } from './auth/createSessionStore'
import { loadFrameConfig, type FrameConfig } from './config/frameConfig'
import { isParentAllowed, readFrameParams } from './config/readFrameParams'
import { createFrameHandlers } from './createFrameHandlers'
import { createKeyVault } from './keys/createKeyVault'
import { createDeviceShareStore } from './keys/deviceShareStore'
import { createFrameMessenger, type FrameMessenger } from './messaging/createFrameMessenger'
import { createNetworkState } from './rpc/createNetworkState'
import { createRpcHandler } from './rpc/createRpcHandler'
import { createSmartAccounts } from './smartAccount/createSmartAccounts'
import { createFrameScreens } from './ui/createFrameScreens'
import { pickLocale } from './ui/frameTexts'

export type StartFrameParameters = {
  window: Window
  /** The frame's deployment config; by default `/frame-config.json` from the frame's own origin. */
  loadConfig?: () => Promise<FrameConfig>
}

/** Why a frame stayed silent (nothing is posted to a page the frame does not trust). */
export type FrameStart = { status: 'ready'; messenger: FrameMessenger; stop: () => void } | { status: 'silent'; reason: string }

/**
 * The secure frame's start (SPEC §4, §7):
 * 1. reads its URL (projectId, chainId, version, enableLogger, and the page's origin); without them it stays silent;
 * 2. loads its config and checks the page's origin against the project's allowed origins (and the real embedder's);
 * 3. wires the session store, auth client, key vault, networks, RPC and screens into the messenger;
 * 4. posts FRAME_READY to the page's exact origin. The page waits a further 500 ms before its first request.
 * @example await startFrame({ window })
 */
export async function startFrame({ window: self, loadConfig = () => loadFrameConfig(new URL('/frame-config.json', self.location.href)) }: StartFrameParameters): Promise<FrameStart> {
  const params = readFrameParams(new URL(self.location.href))
  if (!params) return { status: 'silent', reason: 'the frame URL has no projectId or origin' }
  const log = params.isLoggerEnabled ? (line: string) => console.info(`[tessera-frame] ${line}`) : () => {}
  let config: FrameConfig
  try {
    config = await loadConfig()
  } catch (error) {
    log(`no config: ${(error as Error)?.message ?? String(error)}`)
    return { status: 'silent', reason: 'the frame config could not be loaded' }
  }
  if (!isParentAllowed(config, params, self.location.ancestorOrigins?.[0])) {
    log(`${params.parentOrigin.slice(0, 200)} is not an allowed origin of project ${params.projectId.slice(0, 100)}`)
    return { status: 'silent', reason: 'the page is not allowed' }
  }

  let storage: Storage | undefined
  try {
    storage = self.localStorage
  } catch {
    storage = undefined
  }
  const session = createSessionStore({ storage, projectId: params.projectId })
  const auth = config.authUrl ? createAuthClient({ authUrl: config.authUrl, projectId: params.projectId, deviceId: () => session.deviceId() }) : undefined
  const networks = createNetworkState(config, params.caipNetworkId)
  let dappName: string | undefined
  const document = self.document
  const locale = pickLocale(new URL(self.location.href).searchParams.get('locale'), self.navigator.languages ?? [])
  document.documentElement.lang = locale
  const screens = createFrameScreens({
    document,
    locale,
    site: () => ({ origin: params.parentOrigin, ...(dappName && { name: dappName }) }),
    // The messenger is made below: screens appear only while it answers a request, so it exists by then.
    onOpen: (reason, minHeight) => messenger.post({ type: 'FRAME_OPEN', payload: { reason, minHeight } }),
    onClose: () => messenger.post({ type: 'FRAME_CLOSE', payload: {} }),
  })
  const deviceShares = createDeviceShareStore({ indexedDB: self.indexedDB })
  const vault = createKeyVault({ deviceShares, askPassword: screens.askPassword, ...(config.recoveryKdf && { scryptParams: config.recoveryKdf }) })
  const smartAccounts = createSmartAccounts({ vault, projectId: params.projectId })
  const handleRpc = createRpcHandler({ vault, resolveNetwork: networks.resolve, evmNetworks: networks.evmNetworks, approve: screens.approve, smartAccounts })
  const handle = createFrameHandlers({
    params,
    auth,
    session,
    vault,
    networks,
    smartAccounts,
    screens,
    handleRpc,
    reload: () => self.location.reload(),
    setDappName: (name) => {
      dappName = name
    },
  })
  const messenger = createFrameMessenger({ self, parent: self.parent, parentOrigin: params.parentOrigin, handle, log })
  messenger.post({ type: 'FRAME_READY', payload: { version: params.version } })
  log(`ready for ${params.parentOrigin}`)
  return {
    status: 'ready',
    messenger,
    stop() {
      messenger.stop()
      screens.cancelAll()
      vault.lock()
      deviceShares.close()
    },
  }
}
