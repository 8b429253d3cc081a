/** The account's avatar: its identity image when it has a safe one, else two colours drawn from the address. */
export function Avatar({ address, src }: { address: string; src: string | undefined }) {
  if (src && /^(https:\/\/|data:image\/(png|jpeg|webp|gif)[;,])/.test(src)) return <img className="avatar" src={src} alt="" width={64} height={64} />
  const hue = (hex: string) => Number.parseInt(hex, 16) % 360
  const from = `hsl(${hue(address.slice(2, 8))} 70% 60%)`
  const to = `hsl(${hue(address.slice(-6))} 70% 45%)`
  return <span className="avatar" aria-hidden="true" style={{ background: `linear-gradient(135deg, ${from}, ${to})` }} />
}
