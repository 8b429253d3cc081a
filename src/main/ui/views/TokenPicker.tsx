import { useEffect, useId, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react'
import type { TokenBalance } from '../../../shared/protocol/schemas/entities'
import { useTranslate } from '../useTranslate'
import { formatTokenBalance } from './formatTokenBalance'
import { moveActiveOption, typeaheadOption } from './moveActiveOption'
import { TokenIcon } from './TokenIcon'

/** How long typed letters add up to one type-ahead query. */
const TYPEAHEAD_RESET_MS = 700

/** What the picker shows before balances arrive: the network's own currency. */
export type PlaceholderToken = { symbol: string; name: string; imageUrl: string | undefined }

export type TokenPickerProps = {
  /** The id of the element that names the picker ('Token'). */
  labelId: string
  tokens: readonly TokenBalance[]
  value: TokenBalance | undefined
  /** Each token's image (its own icon, else the data service's; TokenIcon draws a badge without one). */
  imageUrlOf: (token: TokenBalance) => string | undefined
  /** Shown, with a skeleton for its balance, while balances load. */
  placeholder: PlaceholderToken
  isLoading: boolean
  locale: string
  keyOf: (token: TokenBalance) => string
  onChange: (token: TokenBalance) => void
}

/**
 * The token of the send form: a button showing the chosen token (icon, symbol, name, balance) that opens a listbox of
 * every token with its balance in the locale's digits (select-only combobox pattern, as Radix Select): arrows, Home,
 * End, PageUp/PageDown and type-ahead move, Enter or Space chooses, Escape and Tab close, and focus goes back to the
 * button. While balances load it shows the network's currency with a skeleton for the balance, never a bare '…'.
 */
export function TokenPicker({ labelId, tokens, value, imageUrlOf, placeholder, isLoading, locale, keyOf, onChange }: TokenPickerProps) {
  const t = useTranslate()
  const triggerId = useId()
  const listId = useId()
  const optionId = (index: number) => `${listId}-option-${index}`
  const triggerRef = useRef<HTMLButtonElement>(null)
  const listRef = useRef<HTMLUListElement>(null)
  const optionRefs = useRef<(HTMLLIElement | null)[]>([])
  const typeahead = useRef({ query: '', at: -Infinity })
  const [isOpen, setOpen] = useState(false)
  const [active, setActive] = useState(0)
  const chosenIndex = value ? tokens.findIndex((token) => keyOf(token) === keyOf(value)) : -1
  const isWaiting = isLoading && tokens.length === 0

  useEffect(() => {
    if (isOpen) listRef.current?.focus()
  }, [isOpen])
  useEffect(() => {
    if (isOpen) optionRefs.current[active]?.scrollIntoView?.({ block: 'nearest' })
  }, [isOpen, active])

  const open = () => {
    if (tokens.length === 0) return
    setActive(Math.max(chosenIndex, 0))
    setOpen(true)
  }
  const close = ({ refocus = true } = {}) => {
    setOpen(false)
    if (refocus) triggerRef.current?.focus()
  }
  const choose = (index: number) => {
    const token = tokens[index]
    if (token) onChange(token)
    close()
  }

  const onTriggerKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      open()
    }
  }
  const onListKeyDown = (event: KeyboardEvent) => {
    const moved = moveActiveOption(event.key, active, tokens.length)
    if (moved !== undefined) {
      event.preventDefault()
      setActive(moved)
      return
    }
    switch (event.key) {
      case 'Enter':
      case ' ':
        event.preventDefault()
        choose(active)
        return
      case 'Escape':
        // The picker closes; the modal around it stays open.
        event.preventDefault()
        event.stopPropagation()
        close()
        return
      case 'Tab':
        // Closes and lets Tab go on from the button, as a native select does.
        event.stopPropagation()
        close()
        return
    }
    if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      const at = event.timeStamp
      const query = at - typeahead.current.at > TYPEAHEAD_RESET_MS ? event.key : typeahead.current.query + event.key
      typeahead.current = { query, at }
      const found = typeaheadOption(
        tokens.map((token) => token.symbol),
        query,
        active,
      )
      if (found !== undefined) setActive(found)
    }
  }
  const onListBlur = (event: FocusEvent) => {
    // Focus left for elsewhere (a click outside, a tap on another field): close without taking focus back. A click
    // on the button closes through the button.
    if (event.relatedTarget !== triggerRef.current) close({ refocus: false })
  }

  const shown = value
  return (
    <div className="token-picker" data-state={isOpen ? 'open' : 'closed'}>
      <button
        ref={triggerRef}
        id={triggerId}
        type="button"
        className="token-trigger"
        role="combobox"
        aria-haspopup="listbox"
        aria-expanded={isOpen}
        aria-controls={isOpen ? listId : undefined}
        aria-labelledby={`${labelId} ${triggerId}`}
        aria-busy={isWaiting || undefined}
        disabled={tokens.length === 0}
        onClick={() => (isOpen ? close() : open())}
        onKeyDown={onTriggerKeyDown}
      >
        <TokenIcon symbol={shown?.symbol ?? placeholder.symbol} imageUrl={shown ? imageUrlOf(shown) : placeholder.imageUrl} size={28} />
        <span className="token-text">
          <span className="token-symbol">{shown?.symbol ?? placeholder.symbol}</span>
          <span className="token-name">{shown?.name ?? placeholder.name}</span>
        </span>
        {shown ? (
          <span className="token-balance">{formatTokenBalance(locale, shown.quantity.numeric)}</span>
        ) : isWaiting ? (
          <span className="token-balance">
            <span className="skeleton" aria-hidden="true" />
            <span className="visually-hidden">{t('send.balanceLoading')}</span>
          </span>
        ) : (
          <span className="token-balance muted-inline">{t('send.balanceUnavailable')}</span>
        )}
        <span className="chevron" aria-hidden="true" />
      </button>
      {isOpen ? (
        <ul
          ref={listRef}
          id={listId}
          role="listbox"
          className="token-list"
          aria-labelledby={labelId}
          aria-activedescendant={optionId(active)}
          tabIndex={-1}
          onKeyDown={onListKeyDown}
          onBlur={onListBlur}
        >
          {tokens.map((token, index) => (
            <li
              key={keyOf(token)}
              ref={(element) => {
                optionRefs.current[index] = element
              }}
              id={optionId(index)}
              role="option"
              className="token-option"
              aria-selected={index === chosenIndex}
              data-highlighted={index === active ? '' : undefined}
              onClick={() => choose(index)}
              onMouseMove={() => index !== active && setActive(index)}
            >
              <TokenIcon symbol={token.symbol} imageUrl={imageUrlOf(token)} size={28} />
              <span className="token-text">
                <span className="token-symbol">{token.symbol}</span>
                <span className="token-name">{token.name}</span>
              </span>
              <span className="token-balance">{formatTokenBalance(locale, token.quantity.numeric)}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}
