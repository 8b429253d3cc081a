import { CHEVRON_DOWN_PATH, LineIcon } from './LineIcon'

/** The line icons of the widget, drawn in the text's colour (24-unit grid, 2-unit strokes). */
const paths = {
  back: 'M15 18l-6-6 6-6',
  close: 'M18 6L6 18M6 6l12 12',
  chevronRight: 'M9 18l6-6-6-6',
  chevronDown: CHEVRON_DOWN_PATH,
  check: 'M20 6L9 17l-5-5',
  copy: 'M9 9h11v11H9zM5 15H4V4h11v1',
  send: 'M7 17L17 7M8 7h9v9',
  receive: 'M17 7L7 17M16 17H7V8',
  activity: 'M12 7v5l3 2M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0z',
  name: 'M16 12a4 4 0 1 1-8 0 4 4 0 0 1 8 0zm0 0v1.5a2.5 2.5 0 0 0 5 0V12a9 9 0 1 0-3.5 7.1',
  explorer: 'M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5',
  disconnect: 'M12 3v9M6.3 6.3a8 8 0 1 0 11.4 0',
  switch: 'M7 4L3 8l4 4M3 8h14M17 12l4 4-4 4M21 16H7',
  swap: 'M7 3v15M3 14l4 4 4-4M17 21V6M13 10l4-4 4 4',
  buy: 'M3 6h18v12H3zM3 10h18M7 15h4',
  retry: 'M21 12a9 9 0 1 1-2.6-6.4M21 4v5h-5',
  tokens: 'M14 8a6 6 0 1 1-12 0 6 6 0 0 1 12 0zM18.1 10.4A6 6 0 1 1 10.3 18M7 6h1v4M16.7 13.9l.7.7-2.8 2.8',
} as const

export type GlyphName = keyof typeof paths

/** A line icon, hidden from assistive technology: the control it sits in carries the words. */
export function Glyph({ name, size }: { name: GlyphName; size?: number }) {
  return <LineIcon d={paths[name]} size={size} />
}
