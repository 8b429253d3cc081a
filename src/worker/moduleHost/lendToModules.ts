// The core worker imports the chain families' clients and the review engine by URL, each a bundle of its own (see
// src/main/core/familyModules.ts). What they share with the core (the error table, the RPC transport, zod) the core
// lends them instead of each bundle carrying a copy: in a module's build, an import of one of the files below reads
// the core's copy from the worker's global (vite.workerModules.ts). This file's imports are that list, one line each.
import * as caip from '../../shared/protocol/caip'
import * as display from '../../shared/protocol/display'
import * as errors from '../../shared/protocol/errors'
import * as errorTable from '../../shared/protocol/errorTable'
import * as parse from '../../shared/protocol/schemas/parse'
import * as createChainClientRegistry from '../families/createChainClientRegistry'
import * as describeIds from '../rpc-transport/describeIds'
import * as endpointHealth from '../rpc-transport/endpointHealth'
import * as guard from '../rpc-transport/guard'
import * as httpEndpoint from '../rpc-transport/httpEndpoint'
import * as rankedFallback from '../rpc-transport/rankedFallback'
import * as ranking from '../rpc-transport/ranking'
import * as readBoundedText from '../rpc-transport/readBoundedText'
import * as retryRead from '../rpc-transport/retryRead'
import * as shouldRetry from '../rpc-transport/shouldRetry'
import * as toWidgetError from '../rpc-transport/toWidgetError'
import * as zodMini from './zodMini'

/** Where the modules find what the core lends them. */
export const LENT_TO_MODULES = Symbol.for('tessera.lentToModules')

const lent = { caip, display, errors, errorTable, parse, createChainClientRegistry, describeIds, endpointHealth, guard, httpEndpoint, rankedFallback, ranking, readBoundedText, retryRead, shouldRetry, toWidgetError, zodMini }

export type LentToModules = typeof lent

/** Called once by the core worker before it imports any module. */
export function lendToModules() {
  ;(globalThis as { [LENT_TO_MODULES]?: LentToModules })[LENT_TO_MODULES] = lent
}
