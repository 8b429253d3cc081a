import { formatCaipNetworkId, parseCaipNetworkId, type CaipNetworkId } from '../../shared/protocol/caip'
import type { FrameConfig } from './frameConfig'

/** What the widget puts in the frame's URL (SPEC §7: projectId, chainId, version, enableLogger; and its own origin). */
export type FrameParams = {
  projectId: string
  /** The page's origin as the widget states it; the frame talks to no other. */
  parentOrigin: string
  /** The network to start on, as a CAIP-2 id (undefined when absent or not one). */
  caipNetworkId: CaipNetworkId | undefined
  version: string
  isLoggerEnabled: boolean
}

/**
 * A chain id as the widget gives it, as a CAIP-2 id: 1 or '1' → 'eip155:1', 'eip155:1' and 'solana:…' as they are.
 * Undefined for anything else.
 */
export function toCaipNetworkId(chainId: string | number | null | undefined): CaipNetworkId | undefined {
  if (typeof chainId === 'number') return Number.isSafeInteger(chainId) && chainId > 0 ? formatCaipNetworkId('eip155', chainId) : undefined
  if (typeof chainId !== 'string' || chainId.length === 0 || chainId.length > 80) return undefined
  if (/^[1-9]\d{0,15}$/.test(chainId)) return formatCaipNetworkId('eip155', chainId)
  const parsed = parseCaipNetworkId(chainId)
  return parsed && (parsed.namespace === 'eip155' || parsed.namespace === 'solana') ? (chainId as CaipNetworkId) : undefined
}

/** Reads the frame's URL; undefined when projectId or origin is missing (the frame then stays silent). */
export function readFrameParams(url: URL): FrameParams | undefined {
  const projectId = url.searchParams.get('projectId')
  const origin = url.searchParams.get('origin')
  if (!projectId || !origin) return undefined
  return {
    projectId,
    parentOrigin: origin,
    caipNetworkId: toCaipNetworkId(url.searchParams.get('chainId')),
    version: url.searchParams.get('version') ?? '',
    isLoggerEnabled: url.searchParams.get('enableLogger') === 'true',
  }
}

/**
 * Whether the frame may talk to the page: the origin the URL states must be one of the project's allowed origins and,
 * where the browser tells (location.ancestorOrigins), the origin of the page that really embeds the frame.
 * @example isParentAllowed(config, params, location.ancestorOrigins?.[0])
 */
export function isParentAllowed(config: FrameConfig, { projectId, parentOrigin }: Pick<FrameParams, 'projectId' | 'parentOrigin'>, embedderOrigin: string | undefined): boolean {
  const project = config.projects.find((p) => p.id === projectId)
  if (!project || !project.allowedOrigins.includes(parentOrigin)) return false
  return embedderOrigin === undefined || embedderOrigin === parentOrigin
}
