/** A Next.js site with its defaults: the app router, server components. */
export default {}
