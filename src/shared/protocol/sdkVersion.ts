/** The SDK version string, of the form type-adapters-version (SPEC §1): `react-eip155,solana-0.1.0`. */
export const formatSdkVersion = ({ type, adapters, version }: { type: string; adapters: readonly string[]; version: string }) =>
  `${type}-${adapters.join(',')}-${version}`
