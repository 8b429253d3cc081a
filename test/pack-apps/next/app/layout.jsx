import { Providers } from './Providers'

export const metadata = { title: 'Next.js host' }

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  )
}
