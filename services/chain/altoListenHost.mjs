// Preloaded into Alto (node --import): Alto 0.0.20 listens on 0.0.0.0 and has no option to change it, which would
// offer the local bundler, and its funded keys' gas, to the whole network. Its server listens on TESSERA_ALTO_HOST.
import net from 'node:net'

const host = process.env.TESSERA_ALTO_HOST
const listen = net.Server.prototype.listen
net.Server.prototype.listen = function (...args) {
  const [options] = args
  if (host && options && typeof options === 'object' && options.host === '0.0.0.0') args[0] = { ...options, host }
  return listen.apply(this, args)
}
