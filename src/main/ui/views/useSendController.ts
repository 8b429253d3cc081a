import { useEffect, useState } from 'react'
import type { ChainNamespace } from '../../../shared/protocol/caip'
import type { SendController } from '../../families/types'
import { useWidget } from '../../react/WidgetProvider'
import { toErrorNotice, type ErrorNotice } from '../../state/errorNotice'
import { getFeatures } from '../../widget/features'

export type LoadedSendController = { send: SendController } | { error: ErrorNotice }

/**
 * The send controller of a family (its form and its token balances), whose code comes with the family's adapter on
 * first use: undefined while it loads, or what stopped it. A switch to another family loads that family's.
 * @example const loaded = useSendController(namespace); if (loaded && 'send' in loaded) loaded.send.loadTokenBalances()
 */
export function useSendController(namespace: ChainNamespace): LoadedSendController | undefined {
  const widget = useWidget()
  const [loaded, setLoaded] = useState<{ namespace: ChainNamespace } & LoadedSendController>()
  useEffect(() => {
    let isCurrent = true
    getFeatures(widget)
      .send(namespace)
      .then(
        (send) => isCurrent && setLoaded({ namespace, send }),
        (error: unknown) => isCurrent && setLoaded({ namespace, error: toErrorNotice(error) }),
      )
    return () => {
      isCurrent = false
    }
  }, [widget, namespace])
  return loaded?.namespace === namespace ? loaded : undefined
}
