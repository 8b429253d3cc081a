import type { ChainNamespace } from '../../../shared/protocol/caip'

/** A wallet's image: only data: and http(s) URLs are used, as an <img> (never as markup). */
export function WalletIcon({ src }: { src: string | undefined }) {
  const isSafe = src !== undefined && /^(data:image\/(png|jpeg|webp|gif|svg\+xml)[;,]|https?:\/\/)/.test(src)
  return isSafe ? <img src={src} alt="" width={28} height={28} /> : <span className="icon-placeholder" aria-hidden="true" />
}

/** Shows the Connecting view for a wallet and asks it to connect; the view reports the outcome. */
export function connectWallet(
  widget: { router: { push: (view: 'ConnectingExternal', data: Record<string, unknown>) => void }; connect: (id: string, namespace?: ChainNamespace) => Promise<void> },
  connector: { id: string; name: string; namespace?: ChainNamespace },
) {
  widget.router.push('ConnectingExternal', { connectorId: connector.id, name: connector.name, namespace: connector.namespace })
  widget.connect(connector.id, connector.namespace).catch(() => {})
}
