import { useEffect, useState } from 'react'

/** How long a field must rest before what is wrong with it is said. */
export const ISSUE_DELAY_MS = 500

/**
 * What is wrong with a field, said once the visitor has stopped typing for `delayMs` (typing '0.05' should not flash
 * 'greater than 0'); once said, it stays said as the text changes, until the text has nothing wrong. A field that
 * is already wrong when the form opens says so at once.
 */
export function useShownIssue<T>(issue: T | undefined, text: string, delayMs = ISSUE_DELAY_MS): T | undefined {
  const [restedText, setRestedText] = useState(text)
  const [wasShown, setWasShown] = useState(false)
  useEffect(() => {
    const timer = setTimeout(() => setRestedText(text), delayMs)
    return () => clearTimeout(timer)
  }, [text, delayMs])
  const hasRested = restedText === text
  // State follows the props during render (React's pattern for it), not in an effect a render later.
  if (issue === undefined && wasShown) setWasShown(false)
  if (issue !== undefined && hasRested && !wasShown) setWasShown(true)
  return issue !== undefined && (wasShown || hasRested) ? issue : undefined
}
