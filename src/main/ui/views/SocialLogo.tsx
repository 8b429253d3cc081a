import { siApple, siDiscord, siFacebook, siFarcaster, siGithub, siGoogle, siX } from 'simple-icons'
import type { SocialProvider } from '../../connectors/auth/createAuthConnector'

// The logins' brand marks (Simple Icons, CC0), drawn in the colour of the rows' icons so that each shows on either
// theme. They load with the first Connect view that offers a social login, apart from the modal's code.
const marks: Record<SocialProvider | 'farcaster', string> = { google: siGoogle.path, x: siX.path, discord: siDiscord.path, farcaster: siFarcaster.path, github: siGithub.path, apple: siApple.path, facebook: siFacebook.path }

export default function SocialLogo({ provider }: { provider: keyof typeof marks }) {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path fill="currentColor" d={marks[provider]} />
    </svg>
  )
}
