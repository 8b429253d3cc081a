import { createRoot } from 'react-dom/client'
import { FloorApp } from './FloorApp'
import { announceBenchWallet } from './benchWallet'

// `npm run bench:ui`'s floor: the same site with React alone.
// The same installed wallet as the widget's page: the page's own scripts differ by the widget alone.
announceBenchWallet()
createRoot(document.getElementById('root')!).render(<FloorApp />)
