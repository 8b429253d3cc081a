import { useAccount } from '../../react/hooks'
import { ConnectButton } from '../ConnectButton/ConnectButton'

/** The account (balance and short address) when connected, nothing otherwise; opens the Account view. */
export function AccountButton() {
  const { isConnected } = useAccount()
  return isConnected ? <ConnectButton /> : null
}
