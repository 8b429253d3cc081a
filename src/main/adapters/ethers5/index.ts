// tessera/ethers5: the ethers 5 adapter. Written against the `ethers5` alias; the package build makes it the host's `ethers`.
export { ethers5Adapter } from './ethers5Adapter'
export { getWeb3Provider, type GetWeb3ProviderReturnType } from './getWeb3Provider'
export { getSigner, type GetSignerReturnType } from './getSigner'
export { getReadProvider, type GetReadProviderParameters, type GetReadProviderReturnType } from './getReadProvider'
