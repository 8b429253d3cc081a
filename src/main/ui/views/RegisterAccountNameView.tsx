import { useEffect, useId, useState } from 'react'
import { useStoreSelector, useWidget } from '../../react/WidgetProvider'
import { getFeatures } from '../../widget/features'
import { Alert } from '../Alert'
import { useTranslate } from '../useTranslate'

/** Choose a name: suggestions as you type, then sign and register. */
export function RegisterAccountNameView() {
  const widget = useWidget()
  const t = useTranslate()
  const id = useId()
  const [name, setName] = useState('')
  const { names } = getFeatures(widget)
  const state = useStoreSelector(names.store, (s) => s)
  useEffect(() => {
    const timer = setTimeout(() => void names.suggest(name), 300)
    return () => clearTimeout(timer)
  }, [names, name])
  return (
    <form
      className="actions"
      onSubmit={(event) => {
        event.preventDefault()
        void names.register(name)
      }}
    >
      <label htmlFor={id} className="muted">
        {t('names.label')}
      </label>
      <input id={id} className="item" autoComplete="off" spellCheck={false} value={name} onChange={(e) => setName(e.target.value.trim().toLowerCase())} />
      {state.suggestions.length > 0 ? (
        <ul className="list" aria-label={t('names.suggestions')}>
          {state.suggestions.map((s) => (
            <li key={s.name} className="muted">
              {s.name} {s.registered ? `(${t('names.taken')})` : ''}
            </li>
          ))}
        </ul>
      ) : null}
      <Alert message={state.error} />
      <button type="submit" className="button" disabled={state.loading}>
        {t('names.register')}
      </button>
    </form>
  )
}

/** The name is registered. */
export function RegisterAccountNameSuccessView() {
  const widget = useWidget()
  const t = useTranslate()
  const data = useStoreSelector(widget.router.store, (s) => s.data)
  return (
    <div className="account">
      <p role="status">{t('names.success', { name: String(data?.name ?? '') })}</p>
      <button type="button" className="button" onClick={() => widget.router.reset('Account')}>
        {t('names.done')}
      </button>
    </div>
  )
}
