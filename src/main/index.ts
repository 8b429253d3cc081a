export { createCore, type Core, type CreateCoreParameters } from './core/createCore'
