/** The ERC-7715 permission requests the review reads (readPermissionRequest.ts): the draft's name, and the revision's. */
export const PERMISSION_METHODS = ['wallet_grantPermissions', 'wallet_requestExecutionPermissions'] as const
export type PermissionMethod = (typeof PERMISSION_METHODS)[number]

/** The wallet requests a visitor reviews before the wallet asks (issue #36). */
export const REVIEWED_METHODS = ['eth_sendTransaction', 'eth_signTransaction', 'wallet_sendCalls', 'eth_signTypedData_v4', 'eth_signTypedData_v3', 'eth_signTypedData', 'eth_signTypedData_v1', 'personal_sign', 'eth_sign', ...PERMISSION_METHODS] as const
export type ReviewedMethod = (typeof REVIEWED_METHODS)[number]

export const isReviewedMethod = (method: string): method is ReviewedMethod => (REVIEWED_METHODS as readonly string[]).includes(method)

