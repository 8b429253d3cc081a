import { describe, expect, it, vi } from 'vitest'
import { createMemoryStorage, createWidgetStorage } from '../storage/createWidgetStorage'

// The widget's code past its first frame fails to download once (offline, a deploy that replaced the files).
let failures = 1
vi.mock('./startWidget', async (importOriginal) => {
  if (failures-- > 0) throw new TypeError('Failed to fetch dynamically imported module')
  return importOriginal()
})

describe("the widget's code failing to load", () => {
  it('says so in a sentence (and to a visitor who asked for the modal), and the next call that needs it tries again', async () => {
    const { createWidget } = await import('./createWidget')
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const widget = createWidget({
      projectId: 'test',
      networks: [{ chainNamespace: 'eip155', caipNetworkId: 'eip155:31337', id: 31337, name: 'Local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } } }],
      window: new EventTarget() as Window,
      storage: createWidgetStorage({ storage: createMemoryStorage() }),
    })
    widget.open()
    await expect(widget.whenStarted()).rejects.toMatchObject({ code: 'WIDGET_CODE_NOT_LOADED', message: "Tessera's code could not be loaded: check the connection, then try again or reload the page." })
    expect(widget.getState().error).toMatchObject({ code: 'WIDGET_CODE_NOT_LOADED' })
    // The open that could not happen is counted (the modal's UI says so), not done later by surprise.
    expect(widget.modal.store.getState()).toMatchObject({ open: false, failedOpens: 1 })
    await widget.whenStarted()
    expect(widget.getState()).toMatchObject({ isStarted: true, error: undefined })
    expect(widget.modal.store.getState().open).toBe(false)
    widget.open()
    expect(widget.modal.store.getState()).toMatchObject({ open: true, failedOpens: 1 })
    widget.destroy()
    logged.mockRestore()
  })
})
