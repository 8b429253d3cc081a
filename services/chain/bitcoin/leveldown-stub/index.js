// bcoin's bdb requires leveldown at load; the local regtest node runs with `memory: true` and never calls it.
module.exports = function leveldown() {
  throw new Error('leveldown is not available: run the bcoin node with memory: true')
}
