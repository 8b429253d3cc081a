/**
 * Where the highlighted option of a listbox goes on a key (WAI-ARIA listbox pattern): ArrowDown and ArrowUp one step
 * (stopping at the ends), Home and End to the ends, PageDown and PageUp `pageSize` steps. Undefined for any other key.
 * @example moveActiveOption('ArrowDown', 0, 3) // 1
 */
export function moveActiveOption(key: string, active: number, count: number, { pageSize = 5 }: { pageSize?: number } = {}): number | undefined {
  if (count === 0) return undefined
  const last = count - 1
  const clamp = (index: number) => Math.min(Math.max(index, 0), last)
  switch (key) {
    case 'ArrowDown':
      return clamp(active + 1)
    case 'ArrowUp':
      return clamp(active - 1)
    case 'Home':
      return 0
    case 'End':
      return last
    case 'PageDown':
      return clamp(active + pageSize)
    case 'PageUp':
      return clamp(active - pageSize)
    default:
      return undefined
  }
}

/**
 * The option type-ahead lands on: the next label after `active` (wrapping) that starts with `typed`, case-insensitive;
 * when `typed` is one letter repeated ('tt'), the next one starting with that letter, so pressing a letter cycles.
 * @example typeaheadOption(['ETH', 'TSR', 'TUSD'], 't', 1) // 2
 */
export function typeaheadOption(labels: readonly string[], typed: string, active: number): number | undefined {
  const query = typed.toLowerCase()
  const isRepeat = query.length > 1 && [...query].every((c) => c === query[0])
  const prefix = isRepeat ? query[0]! : query
  // A fresh single letter, or a repeat, moves past the active option; a longer query may stay on it.
  const start = prefix.length === 1 ? active + 1 : active
  for (let step = 0; step < labels.length; step++) {
    const index = (start + step) % labels.length
    if (labels[index]!.toLowerCase().startsWith(prefix)) return index
  }
  return undefined
}
