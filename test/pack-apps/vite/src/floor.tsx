import { createRoot } from 'react-dom/client'
import { FloorApp } from './FloorApp'
import { announceBenchWallet } from './benchWallet'

// `npm run bench:ui`'s floor: the same site with React alone.
// The same installed wallet as the widget's page: the page's own scripts differ by the widget alone.
// bench:ui's stages, as on the widget's page (nothing to make here).
performance.mark('bench:entry')
announceBenchWallet()
performance.mark('bench:created')
createRoot(document.getElementById('root')!).render(<FloorApp />)
