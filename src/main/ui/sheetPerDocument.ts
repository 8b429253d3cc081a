/**
 * One parsed copy of `css` per document, made on first use and shared by every shadow root that adopts it; undefined
 * in a browser without constructable stylesheets (which a strict CSP allows, and a `<style>` it does not).
 * @example const widgetSheetOf = sheetPerDocument(widgetCss); const sheet = widgetSheetOf(shadow.ownerDocument)
 */
export function sheetPerDocument(css: string) {
  const sheets = new WeakMap<Document, CSSStyleSheet>()
  return (document: Document): CSSStyleSheet | undefined => {
    const Sheet = document.defaultView?.CSSStyleSheet
    if (!Sheet || !('replaceSync' in Sheet.prototype)) return undefined
    let sheet = sheets.get(document)
    if (!sheet) {
      sheet = new Sheet()
      sheet.replaceSync(css)
      sheets.set(document, sheet)
    }
    return sheet
  }
}
