// The review engine as a module of its own, which the core worker imports by URL at the first review
// (loadReviewEngine.ts): the page's bundler emits it as a file (src/main/core/createCore.ts).
import { reviewCalls, reviewTransaction, reviewTypedDataOnChain } from './createReview'
import { registerReviewEngine } from './loadReviewEngine'

registerReviewEngine({ reviewTransaction, reviewCalls, reviewTypedData: reviewTypedDataOnChain })
