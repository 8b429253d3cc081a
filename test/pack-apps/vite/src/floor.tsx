import { createRoot } from 'react-dom/client'
import { FloorApp } from './FloorApp'

// `npm run bench:ui`'s floor: the same site with React alone.
createRoot(document.getElementById('root')!).render(<FloorApp />)
