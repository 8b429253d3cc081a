/** The chevron the buttons draw; Glyph's `chevronDown` too. Here so the buttons load without the modal's other icons. */
export const CHEVRON_DOWN_PATH = 'M6 9l6 6 6-6'

/** A line icon of path `d`, drawn in the text's colour (24-unit grid, 2-unit strokes), hidden from assistive technology. */
export function LineIcon({ d, size = 16 }: { d: string; size?: number }) {
  return (
    <svg className="glyph" aria-hidden="true" focusable="false" viewBox="0 0 24 24" width={size} height={size} fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round">
      <path d={d} />
    </svg>
  )
}
