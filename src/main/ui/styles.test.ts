import { transform } from 'lightningcss'
import { describe, expect, it } from 'vitest'
import { compactCss } from '../../../vite.widgetCss'
import { modalCss } from './Modal/modalCss'
import { widgetCss } from './styles'

/** The same style sheet, minified by a real CSS parser: equal output means equal rules. */
const minified = (css: string) => transform({ filename: 'widget.css', code: Buffer.from(css), minify: true }).code.toString()

describe('the CSS every build ships compacted (vite.widgetCss.ts)', () => {
  it.each([
    ['the widget', widgetCss],
    ['the modal', modalCss],
  ])('keeps every rule of %s and drops comments and layout', (_name, css) => {
    const compact = compactCss(css)
    expect(minified(compact)).toBe(minified(css))
    expect(compact).not.toContain('/*')
    expect(compact.length).toBeLessThan(css.length * 0.9)
  })

  it('keeps descendant combinators and the spaces values need', () => {
    expect(compactCss('.a  .b:hover ,\n .c > .d { margin: 0 auto ; /* why */ font-family: "Segoe UI", x; }')).toBe('.a .b:hover, .c>.d{margin: 0 auto;font-family: "Segoe UI", x;}')
  })
})
