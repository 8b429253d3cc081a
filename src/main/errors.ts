export { WidgetError } from '../shared/protocol/errors'
export type { ErrorCode } from '../shared/protocol/errorTable'
