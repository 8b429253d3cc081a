import type { ReceiverIssue } from '../../families/sendForm'
import type { MessageKey } from '../i18n/en'

type Translate = (key: MessageKey, params?: Record<string, string>) => string

/**
 * The sentence for what is wrong with a receiver: a bad address names the network (and, on EVM networks, says that a
 * registered name would do too).
 * @example receiverIssueText(t, 'solana', 'Solana Local', { reason: 'badAddress' }) // 'Not a valid address on Solana Local'
 */
export function receiverIssueText(t: Translate, namespace: string, networkName: string, issue: ReceiverIssue): string {
  switch (issue.reason) {
    case 'badAddress':
      return t(namespace === 'eip155' ? 'send.receiver.notAnAddressOrName' : 'send.receiver.notAnAddress', { network: networkName })
    case 'badChecksum':
      return t('send.receiver.badChecksum')
    case 'unknownName':
      return t('send.receiver.unknownName', { name: issue.name })
    case 'nameLookupFailed':
      return t('send.receiver.lookupFailed', { name: issue.name })
  }
}
