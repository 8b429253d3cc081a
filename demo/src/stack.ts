import type { StackManifest } from '../../services/stack/manifest'

declare const __TESSERA_STACK__: StackManifest

/** The local stack's manifest, injected at build time by the stack that serves this page. */
export const stack: StackManifest = __TESSERA_STACK__
