export type AnswerCacheParameters = {
  /** Answers kept at most; past it the least recently used go. */
  maxEntries: number
  /** UTF-8 bytes of keys and answers (as JSON) kept at most, all together; past it the least recently used go. */
  maxBytes: number
}

/**
 * The answers of the hosted RPC endpoint that cannot change (a chain's id, a block by its hash, a mined transaction and
 * its receipt), kept so that asking again costs no upstream call: a least-recently-used map bounded by entries and by
 * bytes. An answer larger than `maxBytes` on its own is not kept.
 * @example const cache = createAnswerCache({ maxEntries: 10_000, maxBytes: 8 << 20 }); cache.set(key, '0x1'); cache.get(key) // { result: '0x1' }
 */
export function createAnswerCache({ maxEntries, maxBytes }: AnswerCacheParameters) {
  const answers = new Map<string, { result: unknown; bytes: number }>()
  let totalBytes = 0
  const forget = (key: string) => {
    totalBytes -= answers.get(key)?.bytes ?? 0
    answers.delete(key)
  }
  return {
    /** The kept answer, wrapped (a kept result may be null), and now the most recently used; undefined when none is kept. */
    get(key: string): { result: unknown } | undefined {
      const answer = answers.get(key)
      if (!answer) return undefined
      answers.delete(key)
      answers.set(key, answer)
      return { result: answer.result }
    },
    set(key: string, result: unknown) {
      forget(key)
      const bytes = Buffer.byteLength(key) + Buffer.byteLength(JSON.stringify(result) ?? '')
      if (bytes > maxBytes) return
      answers.set(key, { result, bytes })
      totalBytes += bytes
      // Map keeps insertion order: the first key is the least recently used.
      while (answers.size > maxEntries || totalBytes > maxBytes) forget(answers.keys().next().value!)
    },
    get size() {
      return answers.size
    },
    get bytes() {
      return totalBytes
    },
  }
}

export type AnswerCache = ReturnType<typeof createAnswerCache>
