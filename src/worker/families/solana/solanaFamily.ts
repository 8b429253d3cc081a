// The Solana client as a module of its own, which the core worker imports by URL (see familyRegistry.ts and index.ts).
import { registerFamily } from '../familyRegistry'
import { createSolanaWorkerApi } from './solanaWorkerApi'

registerFamily('solana', createSolanaWorkerApi)
