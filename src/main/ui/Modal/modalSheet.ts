import { sheetPerDocument } from '../sheetPerDocument'
import { widgetSheetOf } from '../styles'
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

const fontsWarmed = new WeakSet<Document>()

/**
 * Lays out the text of the modal's first view (its title; a wallet's row: its name and how it connects) once per
 * document, in the modal's styles and out of sight, then takes it away: the browser looks up those fonts ahead of the
 * click that opens the modal. Each new size or weight of a font is a lookup that asks the browser's process on Linux,
 * 1–5 ms in that click otherwise, more on a busy machine (issue 37). Nothing is painted; a browser without
 * constructable stylesheets skips it.
 */
export function warmModalFonts(document: Document) {
  const sheets = [modalSheetOf(document), widgetSheetOf(document)]
  if (fontsWarmed.has(document) || !document.body || !sheets.every((sheet) => sheet !== undefined)) return
  fontsWarmed.add(document)
  const element = (tag: string, className: string, ...children: (Node | string)[]) => {
    const node = document.createElement(tag)
    if (className) node.className = className
    node.append(...children)
    return node
  }
  const host = document.createElement('span')
  host.setAttribute('aria-hidden', 'true')
  host.dataset.tesseraFontWarm = ''
  host.style.cssText = 'position:fixed;top:0;left:0;visibility:hidden;pointer-events:none'
  const shadow = host.attachShadow({ mode: 'open' })
  shadow.adoptedStyleSheets = sheets
  const walletRow = element('li', '', element('button', 'item', element('span', 'row-text', element('span', 'row-label', 'Wallet'), element('span', 'row-sub', 'Installed'))))
  shadow.append(element('div', 'root', element('div', 'dialog', element('div', 'header', element('h2', '', 'Connect Wallet')), element('ul', 'list', walletRow))))
  document.body.append(host)
  host.getBoundingClientRect()
  host.remove()
}
