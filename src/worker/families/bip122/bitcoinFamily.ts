// The Bitcoin client as a module of its own, which the core worker imports by URL (see familyRegistry.ts).
import { registerFamily } from '../familyRegistry'
import { createBitcoinWorkerApi } from './bitcoinWorkerApi'

registerFamily('bitcoin', createBitcoinWorkerApi)
