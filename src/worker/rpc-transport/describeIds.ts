/** An id as an error names it; a bigint (Solana's parser keeps large integers exact) as its digits. */
const showId = (id: unknown) => (typeof id === 'bigint' ? String(id) : (JSON.stringify(id) ?? 'none'))

/**
 * What is wrong with the ids of a JSON-RPC answer, or undefined when they are exactly the ids sent: each sent id
 * answered once, and no other.
 * @example describeIds([1, 2], [{ id: 2 }, { id: 3 }]) // 'The node answered 2 response(s) to 2 request(s) with ids that are not the ids sent; missing 1; unexpected 3'
 */
export function describeIds(sent: readonly number[], replies: readonly unknown[]): string | undefined {
  const expected = new Set(sent)
  const seen = new Set<unknown>()
  const duplicated: unknown[] = []
  const unexpected: unknown[] = []
  for (const reply of replies) {
    const id = (reply as { id?: unknown } | null)?.id
    if (seen.has(id)) duplicated.push(id)
    else if (!expected.has(id as number)) unexpected.push(id)
    seen.add(id)
  }
  const missing = sent.filter((id) => !seen.has(id))
  if (missing.length + unexpected.length + duplicated.length === 0) return undefined
  const list = (ids: unknown[]) => ids.slice(0, 5).map(showId).join(', ') + (ids.length > 5 ? ', …' : '')
  return [
    `The node answered ${replies.length} response(s) to ${sent.length} request(s) with ids that are not the ids sent`,
    missing.length && `missing ${list(missing)}`,
    unexpected.length && `unexpected ${list(unexpected)}`,
    duplicated.length && `duplicated ${list(duplicated)}`,
  ]
    .filter(Boolean)
    .join('; ')
}
