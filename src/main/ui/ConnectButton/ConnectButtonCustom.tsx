import type { ReactNode } from 'react'
import { formatBalance, shortenAddress } from '../../../shared/protocol/display'
import { useAccount, useBalance, useNetwork } from '../../react/hooks'
import { useIsStarted, useWidget, useWidgetState } from '../../react/WidgetProvider'
import type { ConnectionStatus } from '../../widget/widgetState'
import type { WidgetNetwork } from '../../widget/config'
import { prefetchModal } from '../WidgetModal'

/** What `ConnectButton.Custom` gives its render function. */
export type ConnectButtonRenderProps = {
  /** The connected account, or undefined. */
  account:
    | {
        address: string
        /** Its registered name, else its short address (`0x12…abcdef`). */
        displayName: string
        /** Its native balance with the symbol (`1.2345 ETH`), once read. */
        displayBalance: string | undefined
        balance: { value: bigint; symbol: string; decimals: number } | undefined
        /** Its identity image (ENS avatar, …), when it has one. */
        avatarUrl: string | undefined
      }
    | undefined
  /** The active network (until the widget has started, the first one the site gave). */
  network: WidgetNetwork | undefined
  status: ConnectionStatus
  isConnected: boolean
  /** The widget's code has loaded and the config is checked: the modal opens at once. */
  isReady: boolean
  /** Opens the modal on Connect. */
  openConnect: () => void
  /** Opens the modal on the account. */
  openAccount: () => void
  /** Opens the modal on the networks. */
  openNetworks: () => void
  /** Loads the modal's code ahead of a click: call it on hover or focus. */
  prefetch: () => void
}

/**
 * The connect button's data and actions for a site that draws its own button (RainbowKit's `ConnectButton.Custom`):
 * the widget's modal still opens from it, so keep `<WidgetModal />` mounted.
 * @example <ConnectButton.Custom>{({ account, openConnect, openAccount }) => <button onClick={account ? openAccount : openConnect}>{account?.displayName ?? 'Connect'}</button>}</ConnectButton.Custom>
 */
export function ConnectButtonCustom({ children }: { children: (props: ConnectButtonRenderProps) => ReactNode }) {
  const widget = useWidget()
  const { status, address, isConnected } = useAccount()
  const balance = useBalance()
  const { network } = useNetwork()
  const profileName = useWidgetState((s) => s.profileName)
  const profileImage = useWidgetState((s) => s.profileImage)
  const isReady = useIsStarted()
  const account =
    isConnected && address
      ? {
          address,
          displayName: profileName ?? shortenAddress(address),
          displayBalance: balance ? `${formatBalance(balance.value, { decimals: balance.decimals })} ${balance.symbol}` : undefined,
          balance,
          avatarUrl: profileImage,
        }
      : undefined
  return children({
    account,
    network,
    status,
    isConnected: account !== undefined,
    isReady,
    openConnect: () => widget.open({ view: 'Connect' }),
    openAccount: () => widget.open({ view: 'Account' }),
    openNetworks: () => widget.open({ view: 'Networks' }),
    prefetch: () => prefetchModal(widget),
  })
}
