// tessera/ethers: the ethers 6 adapter.
export { ethersAdapter } from './ethersAdapter'
export { getBrowserProvider, type GetBrowserProviderReturnType } from './getBrowserProvider'
export { getSigner, type GetSignerReturnType } from './getSigner'
export { getReadProvider, type GetReadProviderParameters, type GetReadProviderReturnType } from './getReadProvider'
