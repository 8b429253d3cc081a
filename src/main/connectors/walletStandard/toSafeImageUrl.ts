// An icon is shown only as an <img> source: a data URI of a raster or SVG image in printable ASCII, no quote or backslash.
const safeIcon = /^data:image\/(?:svg\+xml|png|jpeg|webp|gif)(?:;[-\w.+=]+)*,[ !#-[\]-~]*$/
const MAX_ICON_LENGTH = 256 * 1024

/** The wallet's icon when it is a safe image data URI, else undefined. */
export const toSafeImageUrl = (icon: unknown): string | undefined =>
  typeof icon === 'string' && icon.length <= MAX_ICON_LENGTH && safeIcon.test(icon) ? icon : undefined
