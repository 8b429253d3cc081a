import * as z from 'zod/mini'

/**
 * The secure frame's own events to the page, besides its replies (they carry no request id):
 * - FRAME_READY: the frame has checked the page's origin and answers requests from now on (SPEC §4: the widget waits a
 *   further 500 ms before using it);
 * - FRAME_OPEN: the frame needs the person (an approval of a signature or transaction, or the recovery password): the
 *   page shows the frame's iframe, sized at least 360 × `minHeight` CSS pixels;
 * - FRAME_CLOSE: the frame is done with the person: the page hides the iframe again.
 */
export const frameEventSchema = z.union([
  z.object({ type: z.literal('FRAME_READY'), payload: z.object({ version: z.string() }) }),
  z.object({
    type: z.literal('FRAME_OPEN'),
    payload: z.object({ reason: z.enum(['approval', 'createPassword', 'recoverPassword']), minHeight: z.number().check(z.int(), z.positive(), z.refine((height) => height <= 4_000, { message: 'must be at most 4000' })) }),
  }),
  z.object({ type: z.literal('FRAME_CLOSE'), payload: z.optional(z.object({})) }),
])

export type FrameEvent = z.infer<typeof frameEventSchema>
export type FrameOpenReason = Extract<FrameEvent, { type: 'FRAME_OPEN' }>['payload']['reason']
