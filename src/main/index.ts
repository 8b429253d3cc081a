export { createCore, type Core, type CreateCoreParameters } from './createCore'
