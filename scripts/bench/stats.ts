/** The middle value of a run's samples (the upper middle for an even count). @example median([3, 1, 2]) // 2 */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
