import { createWidget as createWidgetWithoutUi, type CreateWidgetParameters, type Widget } from './widget/createWidget'
import { retryingImport } from './lazy/retryingImport'

const mountWidgetCode = retryingImport(() => import('./ui/mountWidget'), 'mountWidget')

/**
 * The package's `createWidget`: the widget (src/main/widget/createWidget.ts) with the UI that `widget.mount(element)`
 * renders on a page without React, loaded on the first mount.
 * @example
 * const widget = createWidget({ projectId: 'demo', networks: [tesseraLocal] })
 * await widget.mount(document.getElementById('wallet')!)
 */
export const createWidget = (parameters: CreateWidgetParameters): Widget =>
  createWidgetWithoutUi(parameters, { loadUi: () => mountWidgetCode().then((module) => module.mountWidget) })
