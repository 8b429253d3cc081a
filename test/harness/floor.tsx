import { useState } from 'react'
import { createRoot } from 'react-dom/client'
import type { StackManifest } from '../../services/stack/manifest'

declare const __TESSERA_STACK__: StackManifest

/** The floor of `npm run bench:ui`: a plain React page built the same way, with one button. */
function App() {
  const [count, setCount] = useState(0)
  return (
    <button type="button" onClick={() => setCount(count + 1)}>
      Clicked {count}
    </button>
  )
}

// The test stack's manifest, which the widget's page carries too: the budget compares the widget, not test data.
Object.assign(window, { stack: __TESSERA_STACK__ })
createRoot(document.getElementById('root')!).render(<App />)
