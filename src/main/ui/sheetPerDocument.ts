/** The document's constructable stylesheets, where the browser has them: a strict CSP allows them (a `<style>` it does not). */
export function constructedSheetsOf(document: Document) {
  const Sheet = document.defaultView?.CSSStyleSheet
  return Sheet && 'replaceSync' in Sheet.prototype ? Sheet : undefined
}

/**
 * One parsed copy of `css` per document, made on first use and shared by every shadow root that adopts it.
 * @example const widgetSheetOf = sheetPerDocument(widgetCss); shadow.adoptedStyleSheets = [widgetSheetOf(document, Sheet)]
 */
export function sheetPerDocument(css: string) {
  const sheets = new WeakMap<Document, CSSStyleSheet>()
  return (document: Document, Sheet: typeof CSSStyleSheet) => {
    let sheet = sheets.get(document)
    if (!sheet) {
      sheet = new Sheet()
      sheet.replaceSync(css)
      sheets.set(document, sheet)
    }
    return sheet
  }
}
