// The Polkadot client (and dedot, its Substrate library) as a module of its own, which the core worker imports by URL (see familyRegistry.ts and index.ts).
import { registerFamily } from '../familyRegistry'
import { createPolkadotWorkerApi } from './polkadotWorkerApi'

registerFamily('polkadot', createPolkadotWorkerApi)
