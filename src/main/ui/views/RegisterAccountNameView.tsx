import { useEffect, useId, useRef } from 'react'
import { useStoreSelector, useWidget } from '../../react/WidgetProvider'
import { nameLabel, type NameError } from '../../widget/createNamesController'
import { getFeatures } from '../../widget/features'
import { useTranslate, useTranslateError } from '../useTranslate'

/**
 * Choose a name: suggestions as you type (a free one fills the field; a taken one says so), a name the service says is
 * taken is not submitted, then sign and register. An error goes when the name changes.
 */
export function RegisterAccountNameView() {
  const widget = useWidget()
  const t = useTranslate()
  const translateError = useTranslateError()
  const id = useId()
  const errorId = useId()
  const input = useRef<HTMLInputElement>(null)
  const { names } = getFeatures(widget)
  const state = useStoreSelector(names.store, (s) => s)
  useEffect(() => {
    names.reset()
  }, [names])
  useEffect(() => {
    const timer = setTimeout(() => void names.suggest(state.name), 300)
    return () => clearTimeout(timer)
  }, [names, state.name])

  const say = (error: NameError) => {
    if (error.reason === 'invalid') return t('names.invalid')
    if (error.reason === 'taken') return t('names.isTaken', { name: error.name })
    // The service's reason is its own text, after the error's sentence (SPEC §8).
    return error.details ? `${translateError(error.error)}: ${error.details}` : translateError(error.error)
  }
  const message = state.error ? say(state.error) : undefined
  // The name in the field is not suggested back to itself: the service's answer for it says whether it is free, in full.
  const suggestions = state.suggestions.filter((s) => nameLabel(s.name) !== state.name)
  const free = state.suggestions.find((s) => !s.registered && nameLabel(s.name) === state.name)
  return (
    <form
      className="actions"
      onSubmit={(event) => {
        event.preventDefault()
        void names.register()
      }}
    >
      <label htmlFor={id} className="muted">
        {t('names.label')}
      </label>
      <input
        ref={input}
        id={id}
        className="item"
        autoComplete="off"
        spellCheck={false}
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? errorId : undefined}
        value={state.name}
        onChange={(e) => names.setName(e.target.value.trim().toLowerCase())}
      />
      {suggestions.length > 0 ? (
        <ul className="list" aria-label={t('names.suggestions')}>
          {suggestions.map((s) => (
            <li key={s.name}>
              {s.registered ? (
                <span className="item" aria-disabled="true">
                  <span>{s.name}</span>
                  <span className="tag">{t('names.taken')}</span>
                </span>
              ) : (
                <button
                  type="button"
                  className="item"
                  onClick={() => {
                    names.setName(nameLabel(s.name))
                    input.current?.focus()
                  }}
                >
                  {s.name}
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : null}
      {free && !message ? (
        <p className="muted" role="status">
          {t('names.isAvailable', { name: free.name })}
        </p>
      ) : null}
      {message ? (
        <p id={errorId} className="error" role="alert">
          {message}
        </p>
      ) : null}
      <button type="submit" className="button" disabled={state.loading || state.error?.reason === 'taken'}>
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
