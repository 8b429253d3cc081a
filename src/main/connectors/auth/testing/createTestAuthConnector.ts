import { createMemoryStorage, createWidgetStorage } from '../../../storage/createWidgetStorage'
import { createAuthConnector, type CreateAuthConnectorParameters } from '../createAuthConnector'
import type { createFakeFrame } from './createFakeFrame'

/**
 * The auth connector of the tests: over `fake`'s window and frame, with memory storage and a light theme; `overrides`
 * set what a test is about (storage, clock, toasts, the Solana network).
 * @example const auth = createTestAuthConnector(createFakeFrame({ answer }), { now: () => clock })
 */
export function createTestAuthConnector(fake: Pick<ReturnType<typeof createFakeFrame>, 'window' | 'createHost'>, overrides: Partial<CreateAuthConnectorParameters> = {}) {
  return createAuthConnector({
    frameUrl: 'https://frame.test/',
    params: { projectId: 'demo', version: 'react-eip155-0.2.0' },
    window: fake.window,
    createHost: fake.createHost,
    storage: createWidgetStorage({ storage: createMemoryStorage() }),
    theme: () => ({ themeMode: 'light' }),
    dappData: { sdkType: 'tessera' },
    ...overrides,
  })
}
