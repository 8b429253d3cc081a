/** Business constants and limits of SPEC §9 (and the timed rules of SPEC §4), units in the names. */

export const EMAIL_LOGIN_COOLDOWN_MS = 30_000
export const PORTFOLIO_CACHE_MS = 30_000
export const NATIVE_BALANCE_CACHE_MS = 30_000
export const NAME_SERVICE_CACHE_MS = 300_000
export const IDENTITY_CACHE_MS = 300_000
export const RECENT_WALLETS_LIMIT = 2
export const TOKEN_BALANCE_RETRY_GAP_MS = 30_000
export const TOAST_RESHOW_DELAY_MS = 150
export const SHAKE_DURATION_MS = 500
export const IMAGE_PRELOAD_WAIT_MS = 2_000
/** Connect e-mail, device, OTP, social and social redirect URI requests to the secure frame. */
export const SECURE_FRAME_REQUEST_TIMEOUT_MS = 30_000
export const SECURE_FRAME_READY_DELAY_MS = 500
export const PAIRING_EXPIRY_MS = 240_000
/** A pairing counts as expired with this much or less left. */
export const PAIRING_EXPIRED_THRESHOLD_MS = 10_000
export const PAIRING_RETRY_AFTER_MS = 1_000
export const RPC_TIMEOUT_MS = 10_000
export const RPC_BATCH_SIZE = 1_000
export const RPC_BATCH_WAIT_MS = 0
export const RPC_RETRY_COUNT = 3
export const RPC_RETRY_BASE_DELAY_MS = 150
export const RPC_RANKING_INTERVAL_MS = 4_000
export const RPC_RANKING_SAMPLE_COUNT = 10
export const RPC_PING_TIMEOUT_MS = 1_000
export const RPC_RANKING_WEIGHT_STABILITY = 0.7
export const RPC_RANKING_WEIGHT_LATENCY = 0.3
export const PENDING_TRANSACTIONS_LIMIT = 99
export const RECEIPT_WAIT_TIMEOUT_MS = 180_000
export const RECEIPT_WAIT_RETRY_COUNT = 6
export const RECEIPT_CONFIRMATIONS = 1
export const WALLET_ADAPTER_RECEIPT_WAIT_MS = 25_000
export const PENDING_TRANSACTION_POLLING_MS = 30_000
export const MULTICALL_BATCH_SIZE_BYTES = 1_024
export const DEFAULT_FEE_MULTIPLIER = 1.2
export const SWAP_SLIPPAGE_TOLERANCE_PERCENT = 1
export const DEFAULT_LOG_LEVEL = 'error'
export const SECURE_SITE_SDK_VERSION_DEFAULT = 4
export const ONRAMP_CARD_LIMITS_USD = { min: 10, max: 7_500 } as const
export const ONRAMP_BANK_ACCOUNT_LIMITS_USD = { min: 10, max: 25_000 } as const
export const ONRAMP_PROVIDERS = ['coinbase', 'meld'] as const
export const ONRAMP_PROVIDER_FEE_RANGE_PERCENT = { min: 1, max: 2 } as const
export const RECOMMENDED_WALLETS_COUNT = 4
export const WALLETS_PER_PAGE = 40
export const WALLET_SEARCH_MAX_RESULTS = 100
export const WALLET_SEARCH_MIN_WAIT_MS = 300
export const FEATURED_WALLETS_DEFAULT_COUNT = 4
export const WALLET_IMAGES_PREFETCHED = 20
export const ABI_READER_RECURSION_LIMIT = 8_192
export const ADDRESS_VALIDITY_CACHE_ENTRIES = 8_192
export const DISALLOWED_RPC_TOAST_DELAY_MS = 300
/** 2^256 − 1: no fee may exceed it. */
export const FEE_CEILING_WEI = 2n ** 256n - 1n
export const ACCOUNT_NAME_MIN_LENGTH = 4
export const NAME_SUFFIX = '.reown.id'
export const LEGACY_NAME_SUFFIX = '.wcn.id'
export const SOCIAL_PROVIDERS = ['google', 'x', 'discord', 'farcaster', 'github', 'apple', 'facebook'] as const
export const CONNECTOR_ORDER = ['walletConnect', 'recent', 'injected', 'featured', 'custom', 'external', 'recommended'] as const
export const WALLET_FEATURE_ORDER = ['onramp', 'swaps', 'receive', 'send'] as const
export const ONRAMP_NAMESPACES = ['eip155', 'solana'] as const
export const BALANCE_NAMESPACES = ['eip155', 'solana'] as const
export const ACTIVITY_NAMESPACES = ['eip155'] as const
export const NAME_NAMESPACES = ['eip155'] as const
export const AUTH_CONNECTOR_NAMESPACES = ['eip155', 'solana'] as const
export const DEFAULT_FEATURES = {
  swaps: true,
  onramp: true,
  receive: true,
  send: true,
  email: true,
  emailShowWallets: true,
  history: true,
  analytics: true,
  allWallets: true,
  legalCheckbox: false,
  smartSessions: false,
  collapseWallets: false,
} as const
/** The modal's layout (SPEC §2). */
export const MODAL_WIDTH_PX = 360
export const MODAL_Z_INDEX = 999
export const MODAL_BASE_FONT_SIZE_PX = 10
