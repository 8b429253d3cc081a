import { reviewEn, type ReviewMessageKey } from './reviewEn'
import { translateLoaded } from './translate'

/** A review sentence in `locale` (English where the locale has none, or until it is loaded), its {name} placeholders filled. */
export const translateReview = (locale: string, key: ReviewMessageKey, params?: Record<string, string>): string => translateLoaded(reviewEn, (sentences) => sentences.review, locale, key, params)
