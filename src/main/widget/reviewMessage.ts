import { hexToBytes, stringToHex, type Hex } from 'viem'
import { parseSiweMessage } from 'viem/siwe'
import type { MessageReview } from '../../shared/protocol/review'

const HEX = /^0x(?:[0-9a-fA-F]{2})*$/
// Text a person can read has no control characters but line breaks and tabs, and no bidirectional overrides (which
// make text read other than it is stored).
const UNREADABLE = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u
const LINE_BREAKS_AND_TABS = /[\n\r\t]/g

/**
 * What personal_sign will sign: the message as text when its bytes are UTF-8 a person can read (else its bytes), and,
 * for a Sign-In with Ethereum message (EIP-4361), what it signs in to, with whether that is the page's own host.
 * `message` is personal_sign's first parameter: hex bytes, or text as some sites send it.
 * @example reviewMessage('0x68656c6c6f', 'app.example') // { kind: 'message', text: 'hello', bytes: '0x68656c6c6f' }
 */
export function reviewMessage(message: string, pageHost: string | undefined): MessageReview {
  const bytes: Hex = HEX.test(message) ? (message.toLowerCase() as Hex) : stringToHex(message)
  const text = readableText(bytes)
  if (text === undefined) return { kind: 'message', bytes }
  const siwe = parseSiweMessage(text)
  if (!siwe.domain) return { kind: 'message', text, bytes }
  return {
    kind: 'message',
    text,
    bytes,
    signIn: {
      domain: siwe.domain,
      ...(siwe.address && { address: siwe.address }),
      ...(siwe.uri && { uri: siwe.uri }),
      ...(siwe.chainId !== undefined && { chainId: siwe.chainId }),
      ...(siwe.expirationTime && !Number.isNaN(siwe.expirationTime.getTime()) && { expirationTime: siwe.expirationTime.toISOString() }),
      isForThisSite: pageHost !== undefined && siwe.domain.toLowerCase() === pageHost.toLowerCase(),
    },
  }
}

/**
 * What eth_sign will sign: its bytes (and their text when a person can read them), marked blind. No sign-in is read
 * from them: a wallet may sign them without the message prefix, so they are not a message to trust by its words.
 * @example reviewBlindSignature('0x' + 'ab'.repeat(32)) // { kind: 'message', bytes: '0xabab…', isBlind: true }
 */
export function reviewBlindSignature(data: Hex): MessageReview {
  const bytes = data.toLowerCase() as Hex
  const text = readableText(bytes)
  return { kind: 'message', ...(text !== undefined && { text }), bytes, isBlind: true }
}

function readableText(bytes: Hex): string | undefined {
  if (bytes === '0x') return ''
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(hexToBytes(bytes))
    return UNREADABLE.test(text.replace(LINE_BREAKS_AND_TABS, '')) ? undefined : text
  } catch {
    return undefined
  }
}

