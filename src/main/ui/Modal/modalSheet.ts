import { sheetPerDocument } from '../sheetPerDocument'
import { modalCss } from './modalCss'

/** One parsed copy of the modal's CSS per document, shared by every shadow root the modal shows in. */
const modalSheetOf = sheetPerDocument(modalCss)

/**
 * Gives the widget's shadow root the modal's CSS, once, ahead of the widget's own sheet (whose later rules win ties). A
 * constructed sheet where the browser has them, else a `<style>` with the site's nonce.
 */
export function adoptModalCss(root: ShadowRoot, nonce: string | undefined) {
  const sheet = 'adoptedStyleSheets' in root ? modalSheetOf(root.ownerDocument) : undefined
  if (sheet) {
    if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [sheet, ...root.adoptedStyleSheets]
    return
  }
  if (root.querySelector('style[data-tessera-modal]')) return
  const style = root.ownerDocument.createElement('style')
  style.setAttribute('data-tessera-modal', '')
  if (nonce) style.nonce = nonce
  style.textContent = modalCss
  root.prepend(style)
}

/**
 * Parses the modal's CSS ahead of the first open (with the modal's code, on idle or hover), which its click would
 * otherwise do (issue 37).
 */
export function parseModalCss(document: Document) {
  modalSheetOf(document)
}
