import { useState } from 'react'
import { createRoot } from 'react-dom/client'

/** The floor of `npm run bench:ui`: a plain React page built the same way, with one button. */
function App() {
  const [count, setCount] = useState(0)
  return (
    <button type="button" onClick={() => setCount(count + 1)}>
      Clicked {count}
    </button>
  )
}

createRoot(document.getElementById('root')!).render(<App />)
