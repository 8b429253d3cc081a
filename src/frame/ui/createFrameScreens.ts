import { shortenAddress } from '../../shared/protocol/display'
import { createWidgetError, isWidgetError } from '../../shared/protocol/errors'
import { paymasterErrorCodes } from '../../shared/protocol/paymasterErrors'
import type { PasswordPrompt } from '../keys/createKeyVault'
import { RECOVERY_PASSWORD_MIN_LENGTH } from '../keys/recoveryShare'
import type { FrameOpenReason } from '../messaging/frameEvents'
import type { ApprovalRequest, FeeShown, SolanaAction } from '../rpc/approvalRequest'
import { say, sayError, type FrameLocale, type TextKey } from './frameTexts'

/** How long Approve stays off after a screen appears, so a click aimed at the page beneath cannot land on it. */
export const APPROVE_ARM_DELAY_MS = 600
/** The height the page should give the frame for each screen, in CSS pixels. */
const MIN_HEIGHT = { approval: 520, createPassword: 520, recoverPassword: 420 } satisfies Record<FrameOpenReason, number>

export type FrameScreens = {
  /** Shows what is asked and resolves on Approve; rejects with USER_REJECTED on Reject (or LIMIT_EXCEEDED when too many wait). */
  approve(request: ApprovalRequest): Promise<void>
  askPassword: PasswordPrompt
  setTheme(theme: { themeMode?: 'light' | 'dark'; themeVariables?: Record<string, string | number> }): void
  /** Rejects every screen shown or waiting (sign-out, reload). */
  cancelAll(): void
}

export type CreateFrameScreensParameters = {
  document: Document
  locale: FrameLocale
  /** Who asks: the page's verified origin and the name it gave (APP_SYNC_DAPP_DATA). */
  site: () => { origin: string; name?: string }
  onOpen: (reason: FrameOpenReason, minHeight: number) => void
  onClose: () => void
  maxWaiting?: number
}

type Job = { reason: FrameOpenReason; render: (root: HTMLElement, finish: () => void) => void; reject: (error: unknown) => void }

// Only the widget's own variables, with values that cannot load anything (no url(), no expressions, no escapes).
const themeVariableName = /^--tsr-[a-z0-9-]{1,40}$/
const themeVariableValue = /^[#a-zA-Z0-9 .,%()'"-]{1,120}$/

/**
 * The frame's screens, built with the DOM and textContent only (nothing from a request is ever parsed as HTML): the
 * approval of a signature or transaction, and the recovery password. One screen at a time; others wait their turn. The
 * page is told to show the frame (onOpen) when a screen appears and to hide it (onClose) when none is left.
 * @example const screens = createFrameScreens({ document, locale: 'en', site, onOpen, onClose })
 */
export function createFrameScreens({ document, locale, site, onOpen, onClose, maxWaiting = 20 }: CreateFrameScreensParameters): FrameScreens {
  const root = document.getElementById('app') ?? document.body.appendChild(document.createElement('main'))
  root.id = 'app'
  const queue: Job[] = []
  let current: Job | undefined

  const t = (key: TextKey, params?: Record<string, string | number>) => say(locale, key, params)
  const el = <K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, text?: string) => {
    const node = document.createElement(tag)
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value)
    if (text !== undefined) node.textContent = text
    return node
  }

  function showNext() {
    root.replaceChildren()
    current = queue.shift()
    if (!current) {
      root.hidden = true
      onClose()
      return
    }
    root.hidden = false
    const job = current
    onOpen(job.reason, MIN_HEIGHT[job.reason])
    job.render(root, () => {
      if (current === job) showNext()
    })
  }

  function enqueue(job: Job) {
    if (queue.length >= maxWaiting) {
      job.reject(createWidgetError('LIMIT_EXCEEDED', { details: `${maxWaiting} requests already wait for the person` }))
      return
    }
    queue.push(job)
    if (!current) showNext()
  }

  /** The dialog frame of every screen: who asks, the title, the body, a live line for errors, the buttons. */
  function dialog(title: string) {
    const { origin, name } = site()
    const host = new URL(origin).host
    const section = el('section', { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'screen-title' })
    const asker = el('p', { class: 'asker' }, name ? t('approval.fromNamed', { name: name.slice(0, 60), site: host }) : t('approval.from', { site: host }))
    const heading = el('h1', { id: 'screen-title' }, title)
    const body = el('div', { class: 'body' })
    const error = el('p', { class: 'error', role: 'alert' })
    const actions = el('div', { class: 'actions' })
    section.append(asker, heading, body, error, actions)
    return { section, body, error, actions }
  }

  const row = (list: HTMLElement, label: string, value: string, title?: string) => {
    list.append(el('dt', {}, label), el('dd', title ? { title } : {}, value))
  }

  /**
   * Approve is armed only after APPROVE_ARM_DELAY_MS and, where the browser can tell (IntersectionObserver v2), only
   * while the frame is really visible and not covered: a page that hides or overlays the frame cannot get a click.
   */
  function armWhenVisible(button: HTMLButtonElement, hint: HTMLElement) {
    button.disabled = true
    let isDelayOver = false
    let isVisible: boolean | undefined
    const update = () => {
      const isArmed = isDelayOver && isVisible !== false
      button.disabled = !isArmed
      hint.hidden = isArmed
    }
    const timer = setTimeout(() => {
      isDelayOver = true
      update()
    }, APPROVE_ARM_DELAY_MS)
    let observer: IntersectionObserver | undefined
    if (typeof IntersectionObserver === 'function') {
      try {
        observer = new IntersectionObserver(
          (entries) => {
            const entry = entries.at(-1) as (IntersectionObserverEntry & { isVisible?: boolean }) | undefined
            if (entry && typeof entry.isVisible === 'boolean') isVisible = entry.isVisible
            update()
          },
          { threshold: [1], trackVisibility: true, delay: 100 } as IntersectionObserverInit,
        )
        observer.observe(button)
      } catch {
        observer = undefined
      }
    }
    return () => {
      clearTimeout(timer)
      observer?.disconnect()
    }
  }

  function describe(request: ApprovalRequest, body: HTMLElement): { title: string; confirm: string } {
    const facts = el('dl', { class: 'facts' })
    const short = (address: string) => shortenAddress(address)
    const accountRow = () => row(facts, t(request.accountType === 'smartAccount' ? 'approval.smartAccount' : 'approval.account'), short(request.account), request.account)
    /** Who pays a smart account's fee: the sponsor; or the account, after the sponsor's refusal when there was one. */
    const feeRows = (fee: FeeShown | undefined, maxFee: string | undefined, symbol: string) => {
      if (fee?.payer === 'sponsor') return row(facts, t('sendTransaction.feeLabel'), t('fee.sponsored'))
      if (fee?.sponsorRefused) body.append(el('p', { class: 'warning', role: 'status' }, sponsorRefusalText(fee.sponsorRefused)))
      else if (fee?.sponsorUnreachable) body.append(el('p', { class: 'warning', role: 'status' }, t('fee.sponsorUnreachable')))
      if (maxFee !== undefined) row(facts, t('sendTransaction.fee'), `${maxFee} ${symbol}`)
    }
    switch (request.kind) {
      case 'signMessage':
      case 'solanaSignMessage': {
        body.append(el('p', {}, t('signMessage.intro')))
        if (request.text !== undefined) body.append(el('h2', {}, t('signMessage.text')), el('pre', { class: 'message', tabindex: '0' }, request.text))
        else body.append(el('p', { class: 'warning' }, t('signMessage.notText')), el('pre', { class: 'message hex', tabindex: '0' }, request.hex))
        accountRow()
        row(facts, t('approval.network'), request.network)
        body.append(facts)
        return { title: t(request.kind === 'signMessage' ? 'signMessage.title' : 'solana.signMessage.title'), confirm: t('approval.sign') }
      }
      case 'signTypedData': {
        body.append(el('p', {}, t('typedData.intro')))
        if (request.permit) {
          const amount = request.permit.amount === 'unlimited' ? t('typedData.unlimited') : request.permit.amount
          body.append(el('p', { class: 'warning' }, t('typedData.permit', { spender: request.permit.spender, amount })))
        }
        if (request.domainName) row(facts, t('typedData.app'), request.domainName, request.verifyingContract)
        else if (request.verifyingContract) row(facts, t('typedData.app'), short(request.verifyingContract), request.verifyingContract)
        row(facts, t('typedData.type'), request.primaryType)
        for (const field of request.fields) row(facts, field.label, field.value)
        accountRow()
        row(facts, t('approval.network'), request.network)
        body.append(facts)
        return { title: t('typedData.title'), confirm: t('approval.sign') }
      }
      case 'sendTransaction': {
        body.append(
          el(
            'p',
            { class: 'summary' },
            request.to ? t('sendTransaction.summary', { amount: request.amount, symbol: request.symbol, to: request.to }) : t('sendTransaction.deploy', { amount: request.amount, symbol: request.symbol }),
          ),
        )
        if (request.token) {
          const params = { amount: request.token.amount, symbol: request.token.symbol ?? '', contract: request.token.contract, to: request.token.counterparty }
          body.append(el('p', { class: request.token.action === 'approve' ? 'warning' : '' }, t(request.token.action === 'approve' ? 'sendTransaction.tokenApprove' : 'sendTransaction.tokenTransfer', params)))
        } else if (request.dataBytes > 0) body.append(el('p', {}, t('sendTransaction.data', { n: request.dataBytes })))
        if (request.to) row(facts, t('sendTransaction.to'), short(request.to), request.to)
        row(facts, t('sendTransaction.amount'), `${request.amount} ${request.symbol}`)
        feeRows(request.fee, request.maxFee, request.symbol)
        accountRow()
        row(facts, t('approval.network'), request.network)
        body.append(facts)
        return { title: t('sendTransaction.title'), confirm: t('approval.send') }
      }
      case 'sendCalls': {
        const list = el('ol', { class: 'steps' })
        request.calls.forEach((call, index) => {
          const params = { n: index + 1, amount: call.amount, symbol: request.symbol, to: call.to, bytes: call.dataBytes }
          if (call.token) {
            const token = { n: index + 1, amount: call.token.amount, symbol: call.token.symbol ?? '', contract: call.token.contract, to: call.token.counterparty }
            list.append(el('li', call.token.action === 'approve' ? { class: 'warning' } : {}, t(call.token.action === 'approve' ? 'sendCalls.tokenApprove' : 'sendCalls.tokenTransfer', token)))
          } else list.append(el('li', {}, t(call.dataBytes > 0 ? 'sendCalls.callData' : 'sendCalls.call', params)))
        })
        body.append(el('p', {}, t(request.atomic ? 'sendCalls.atomic' : 'sendCalls.oneByOne')), list)
        feeRows(request.fee, request.maxFee, request.symbol)
        accountRow()
        row(facts, t('approval.network'), request.network)
        body.append(facts)
        return { title: t(request.atomic ? 'sendCalls.titleAtomic' : 'sendCalls.title', { n: request.calls.length }), confirm: t('approval.send') }
      }
      case 'solanaTransaction': {
        const list = el('ul', { class: 'steps' })
        for (const action of request.actions) list.append(el('li', {}, solanaActionText(action)))
        body.append(list, el('p', {}, request.willSend ? t('solana.willSend') : t('solana.returns', { site: new URL(site().origin).host })))
        row(facts, t('approval.account'), short(request.account), request.account)
        row(facts, t('approval.network'), request.network)
        body.append(facts)
        return { title: request.count > 1 ? t('solana.transactions.title', { n: request.count }) : t('solana.transaction.title'), confirm: request.willSend ? t('approval.send') : t('approval.sign') }
      }
    }
  }

  /** The sponsor's refusal: its own sentence in English, else this language's (the budget one said as such). */
  function sponsorRefusalText({ code, message }: { code: number; message: string }) {
    if (locale === 'en') return message
    return t(code === paymasterErrorCodes.dailyGasExhausted ? 'fee.dailyGasExhausted' : 'fee.notSponsored')
  }

  function solanaActionText(action: SolanaAction) {
    switch (action.kind) {
      case 'transfer':
        return t('solana.transfer', { amount: action.amount, to: action.to })
      case 'tokenTransfer':
        return action.mint ? t('solana.tokenTransfer', { amount: action.amount, mint: action.mint, to: action.to }) : t('solana.tokenTransferUnknownMint', { amount: action.amount, to: action.to })
      case 'createTokenAccount':
        return t('solana.createTokenAccount', { owner: action.owner ?? '?' })
      case 'feeSettings':
        return t('solana.feeSettings')
      case 'program':
        return t('solana.program', { program: action.programId })
    }
  }

  function approve(request: ApprovalRequest) {
    return new Promise<void>((resolve, reject) => {
      let stopArming = () => {}
      const job: Job = {
        reason: 'approval',
        reject: (error) => {
          stopArming()
          reject(error)
        },
        render(container, finish) {
          const { section, body, actions } = dialog('')
          const { title, confirm } = describe(request, body)
          section.querySelector('#screen-title')!.textContent = title
          const rejectButton = el('button', { type: 'button', class: 'secondary' }, t('approval.reject'))
          const approveButton = el('button', { type: 'button', class: 'primary' }, confirm)
          const hint = el('p', { class: 'hint' }, t('approval.waitVisible'))
          actions.append(rejectButton, approveButton)
          section.append(hint)
          stopArming = armWhenVisible(approveButton, hint)
          rejectButton.addEventListener('click', () => {
            stopArming()
            reject(createWidgetError('USER_REJECTED'))
            finish()
          })
          approveButton.addEventListener('click', () => {
            if (approveButton.disabled) return
            stopArming()
            resolve()
            finish()
          })
          section.addEventListener('keydown', (event) => {
            if (event.key === 'Escape') rejectButton.click()
          })
          container.append(section)
          rejectButton.focus()
        },
      }
      enqueue(job)
    })
  }

  const askPassword: PasswordPrompt = ({ mode, submit }) =>
    new Promise((resolve, reject) => {
      const job: Job = {
        reason: mode === 'create' ? 'createPassword' : 'recoverPassword',
        reject,
        render(container, finish) {
          const { section, body, error, actions } = dialog(t(mode === 'create' ? 'password.create.title' : 'password.recover.title'))
          const form = el('form', { novalidate: '' })
          body.append(el('p', {}, t(mode === 'create' ? 'password.create.intro' : 'password.recover.intro')))
          const field = (id: string, label: string, autocomplete: string) => {
            const input = el('input', { id, type: 'password', autocomplete, required: '', spellcheck: 'false', 'aria-describedby': 'screen-error' })
            form.append(el('label', { for: id }, label), input)
            return input
          }
          const password = field('password', t(mode === 'create' ? 'password.create.label' : 'password.recover.label'), mode === 'create' ? 'new-password' : 'current-password')
          if (mode === 'create') password.setAttribute('minlength', String(RECOVERY_PASSWORD_MIN_LENGTH))
          const confirmation = mode === 'create' ? field('password-again', t('password.create.confirm'), 'new-password') : undefined
          const showLabel = el('label', { class: 'show' })
          const show = el('input', { type: 'checkbox' })
          showLabel.append(show, document.createTextNode(` ${t('password.show')}`))
          show.addEventListener('change', () => {
            for (const input of [password, confirmation]) input?.setAttribute('type', show.checked ? 'text' : 'password')
          })
          form.append(showLabel)
          error.id = 'screen-error'
          const cancel = el('button', { type: 'button', class: 'secondary' }, t('password.cancel'))
          const confirm = el('button', { type: 'submit', class: 'primary' }, t(mode === 'create' ? 'password.create.submit' : 'password.recover.submit'))
          actions.append(cancel, confirm)
          form.append(actions)
          body.append(form)
          section.append(error)
          const setBusy = (isBusy: boolean) => {
            section.setAttribute('aria-busy', String(isBusy))
            for (const control of [password, confirmation, confirm, cancel]) if (control) control.disabled = isBusy
            if (isBusy) error.textContent = t('password.working')
          }
          cancel.addEventListener('click', () => {
            reject(createWidgetError('USER_REJECTED'))
            finish()
          })
          form.addEventListener('submit', (event) => {
            event.preventDefault()
            error.textContent = ''
            if (mode === 'create' && password.value.length < RECOVERY_PASSWORD_MIN_LENGTH) {
              error.textContent = sayError(locale, 'RECOVERY_PASSWORD_TOO_SHORT', { n: RECOVERY_PASSWORD_MIN_LENGTH })
              password.focus()
              return
            }
            if (confirmation && confirmation.value !== password.value) {
              error.textContent = t('password.create.mismatch')
              confirmation.focus()
              return
            }
            setBusy(true)
            submit(password.value).then(
              (result) => {
                resolve(result)
                finish()
              },
              (failure: unknown) => {
                setBusy(false)
                const code = isWidgetError(failure) ? failure.code : undefined
                if (code === 'RECOVERY_PASSWORD_WRONG' || code === 'RECOVERY_PASSWORD_TOO_SHORT') {
                  error.textContent = sayError(locale, code, { n: RECOVERY_PASSWORD_MIN_LENGTH })
                  password.select()
                  password.focus()
                  return
                }
                reject(failure)
                finish()
              },
            )
          })
          section.addEventListener('keydown', (event) => {
            if (event.key === 'Escape' && section.getAttribute('aria-busy') !== 'true') cancel.click()
          })
          container.append(section)
          password.focus()
        },
      }
      enqueue(job)
    })

  return {
    approve,
    askPassword,
    setTheme({ themeMode, themeVariables }) {
      const html = document.documentElement
      if (themeMode) html.dataset.theme = themeMode
      for (const [name, value] of Object.entries(themeVariables ?? {}).slice(0, 40)) {
        if (themeVariableName.test(name) && themeVariableValue.test(String(value)) && !/url|expression|\\/i.test(String(value))) html.style.setProperty(name, String(value))
      }
    },
    cancelAll() {
      const waiting = [...(current ? [current] : []), ...queue.splice(0)]
      current = undefined
      for (const job of waiting) job.reject(createWidgetError('REQUEST_ABORTED'))
      root.replaceChildren()
      root.hidden = true
      onClose()
    },
  }
}
