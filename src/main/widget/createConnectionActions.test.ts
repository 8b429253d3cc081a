import { describe, expect, it } from 'vitest'
import { useLocalEvmWidgets } from '../../../test/support/localEvmWidgets'
import type { SIWXConfig } from './siwxConfig'

/** A sign-in with no session for anyone yet: connecting asks to sign in. */
const siwx: SIWXConfig = {
  createMessage: async ({ accountAddress }) => `Sign in as ${accountAddress}`,
  addSession: async () => {},
  getSessions: async () => [],
  revokeSession: async () => {},
  getRequired: () => false,
}

describe('after a connection the visitor asked for', () => {
  const { setup } = useLocalEvmWidgets()
  const embedded = useLocalEvmWidgets({ enableEmbedded: true })
  const withSignIn = useLocalEvmWidgets({ siwx })

  it('closes the modal, as peers do; opening it again shows the account', async () => {
    const { widget } = setup()
    widget.open()
    expect(widget.router.store.getState().view).toBe('Connect')
    widget.router.push('ConnectingExternal', { connectorId: 'dev.tessera.wallet', name: 'Tessera Dev Wallet' })
    await widget.connect('dev.tessera.wallet')
    expect(widget.getState().status).toBe('connected')
    expect(widget.modal.store.getState().open).toBe(false)
    widget.open()
    expect(widget.router.store.getState()).toMatchObject({ view: 'Account', history: [{ view: 'Account' }] })
  })

  it('leaves a closed modal closed (a host that connects by code)', async () => {
    const { widget } = setup()
    await widget.connect('dev.tessera.wallet')
    expect(widget.modal.store.getState().open).toBe(false)
    expect(widget.router.store.getState().view).toBe('Account')
  })

  it('keeps the modal open on the sign-in view when sign-in follows', async () => {
    const { widget } = withSignIn.setup()
    widget.open()
    await widget.connect('dev.tessera.wallet')
    expect(widget.modal.store.getState().open).toBe(true)
    expect(widget.router.store.getState().view).toBe('SIWXSignMessage')
  })

  it('shows Account in embedded mode, where the modal never closes', async () => {
    const { widget } = embedded.setup()
    widget.open()
    await widget.connect('dev.tessera.wallet')
    expect(widget.modal.store.getState().open).toBe(true)
    expect(widget.router.store.getState().view).toBe('Account')
  })

  it('keeps the modal open on the connecting view when the wallet declines', async () => {
    const { widget, wallet } = setup()
    await widget.whenStarted()
    widget.open()
    widget.router.push('ConnectingExternal', { connectorId: 'dev.tessera.wallet', name: 'Tessera Dev Wallet' })
    wallet.rejectNext('eth_requestAccounts')
    await expect(widget.connect('dev.tessera.wallet')).rejects.toMatchObject({ code: 'USER_REJECTED' })
    expect(widget.modal.store.getState().open).toBe(true)
    expect(widget.router.store.getState().view).toBe('ConnectingExternal')
  })
})
