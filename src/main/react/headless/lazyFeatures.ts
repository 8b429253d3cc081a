// What the hooks load on first use, in one `import()`: the controllers the modal's views use (getFeatures), and the
// rules the Send and Activity views apply. The bundler puts these modules in one chunk that the modal shares, so a
// site that uses the hooks and the modal downloads them once, and the modal none the more.
export { getFeatures } from '../../widget/features'
export { activityRowsOf, groupRowsByDay } from '../../ui/views/activityRows'
export * as sendFormRules from './sendFormRules'
