import type { ChainNamespace } from '../../../shared/protocol/caip'
import type { Widget } from '../../widget/createWidget'
import { retryingImport } from '../../lazy/retryingImport'

const lazyFeaturesCode = retryingImport(() => import('./lazyFeatures'), 'getFeatures')

/**
 * The widget's send, history, names and wallet-list controllers (the modal's code), with the Send and Activity views'
 * rules, loaded by the first hook that needs them once the widget has started: the same controllers the views use, so
 * a hook and a view see one state.
 */
export const loadFeatures = (widget: Widget) =>
  widget
    .whenStarted()
    .then(lazyFeaturesCode)
    .then((lazy) => ({ ...lazy, features: lazy.getFeatures(widget) }))

/** The wallet registry's controller (Connect's registry wallets). */
export const loadWalletList = (widget: Widget) => loadFeatures(widget).then(({ features }) => features.wallets)

/** The history controller (Activity) and how the Activity view makes rows of it. */
export const loadActivity = (widget: Widget) => loadFeatures(widget).then(({ features, activityRowsOf, groupRowsByDay }) => ({ history: features.history, activityRowsOf, groupRowsByDay }))

/** The send controller of a family (its form and its token balances), its code with the family's adapter. */
export const loadSend = (widget: Widget, namespace: string) => loadFeatures(widget).then(({ features }) => features.send(namespace as ChainNamespace))

/** The send controller of a family and the Send view's rules. */
export const loadSendForm = (widget: Widget, namespace: string) => loadFeatures(widget).then(async ({ features, sendFormRules }) => ({ send: await features.send(namespace as ChainNamespace), rules: sendFormRules }))
