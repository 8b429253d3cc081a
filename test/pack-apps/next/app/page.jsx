// A server component: it imports the package and renders its button, which is a client component.
import { ConnectButton } from 'tessera'

export default function Page() {
  return (
    <main>
      <h1>Next.js host</h1>
      <ConnectButton />
    </main>
  )
}
