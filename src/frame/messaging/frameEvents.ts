// The frame's events are part of the page ↔ frame protocol: the page checks them with the same schema.
export { frameEventSchema, type FrameEvent, type FrameOpenReason } from '../../shared/protocol/schemas/frameEvents'
