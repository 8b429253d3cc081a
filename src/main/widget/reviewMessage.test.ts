import { stringToHex } from 'viem'
import { createSiweMessage } from 'viem/siwe'
import { describe, expect, it } from 'vitest'
import { reviewBlindSignature, reviewMessage } from './reviewMessage'

const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const signIn = (domain: string) =>
  createSiweMessage({ domain, address, uri: `https://${domain}/login`, version: '1', chainId: 31337, nonce: 'a1b2c3d4e5f6g7h8', issuedAt: new Date('2026-11-29T00:00:00Z'), expirationTime: new Date('2026-11-29T00:10:00Z') })

describe('a personal_sign message, reviewed', () => {
  it('is shown as its text when its bytes are readable UTF-8, as hex or as the text some sites send', () => {
    expect(reviewMessage(stringToHex('Hello, Ada.\nNo funds move.'), 'app.example')).toEqual({ kind: 'message', text: 'Hello, Ada.\nNo funds move.', bytes: stringToHex('Hello, Ada.\nNo funds move.') })
    expect(reviewMessage('Bonjour, l’équipe ✓', 'app.example')).toEqual({ kind: 'message', text: 'Bonjour, l’équipe ✓', bytes: stringToHex('Bonjour, l’équipe ✓') })
    expect(reviewMessage('0x', 'app.example')).toEqual({ kind: 'message', text: '', bytes: '0x' })
  })

  it('is shown as bytes when they are not text a person can read: not UTF-8, control characters, or text that reads other than it is stored', () => {
    const hash = '0x8c2a6b0e9d4f1c3b5a7e6d8f0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3'
    expect(reviewMessage(hash, 'app.example')).toEqual({ kind: 'message', bytes: hash })
    expect(reviewMessage(stringToHex('transfer\u0000all'), 'app.example')).not.toHaveProperty('text')
    // U+202E turns the rest around on screen: "ETH 1 to send" could show as "dnes ot 1 HTE".
    expect(reviewMessage(stringToHex('Sign in\u202Eelbisivni'), 'app.example')).not.toHaveProperty('text')
    expect(reviewMessage('0xABCD', 'app.example').bytes).toBe('0xabcd')
  })

  it('a Sign-In with Ethereum message says what it signs in to, and whether that is the site asking', () => {
    const forThisSite = reviewMessage(stringToHex(signIn('app.example')), 'app.example')
    expect(forThisSite).toMatchObject({
      kind: 'message',
      text: signIn('app.example'),
      signIn: { domain: 'app.example', address, uri: 'https://app.example/login', chainId: 31337, expirationTime: '2026-11-29T00:10:00.000Z', isForThisSite: true },
    })
    expect(reviewMessage(signIn('wallet-drainer.example'), 'app.example').signIn).toMatchObject({ domain: 'wallet-drainer.example', isForThisSite: false })
    // The host with its port, as location.host has it; no page host (a server): never said to be this site.
    expect(reviewMessage(signIn('localhost:5173'), 'localhost:5173').signIn?.isForThisSite).toBe(true)
    expect(reviewMessage(signIn('localhost:5173'), 'localhost:5174').signIn?.isForThisSite).toBe(false)
    expect(reviewMessage(signIn('app.example'), undefined).signIn?.isForThisSite).toBe(false)
    expect(reviewMessage('Sign in to app.example', 'app.example')).not.toHaveProperty('signIn')
  })
})

describe('eth_sign’s data, reviewed as a blind signature', () => {
  it('is its bytes, marked blind, and its text only when a person can read it', () => {
    const hash = '0x8C2A6B0E9D4F1C3B5A7E6D8F0A1B2C3D4E5F60718293A4B5C6D7E8F9A0B1C2D3'
    expect(reviewBlindSignature(hash)).toEqual({ kind: 'message', bytes: hash.toLowerCase(), isBlind: true })
    expect(reviewBlindSignature(stringToHex('Hello'))).toEqual({ kind: 'message', text: 'Hello', bytes: stringToHex('Hello'), isBlind: true })
  })

  it('never reads a sign-in from it: a wallet may sign it without the message prefix', () => {
    const review = reviewBlindSignature(stringToHex(signIn('app.example')))
    expect(review).not.toHaveProperty('signIn')
    expect(review.isBlind).toBe(true)
  })
})
