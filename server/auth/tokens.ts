/**
 * Signed session tokens (HS256 JWT). The secret comes from TOKEN_SECRET, or is generated once and kept
 * in the data folder (replicas sharing a database must share TOKEN_SECRET).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT, jwtVerify } from 'jose';

export interface VerifiedToken {
  userId: number;
  /** Past half its life: worth replacing with a fresh one. */
  renew: boolean;
  /** The token's own id, for revoking it at logout. */
  jti: string;
  issuedAt: number;
  expiresAt: number;
}

export interface Tokens {
  issue(userId: number): Promise<string>;
  /** The token's claims, or null for a token that is bad or expired. */
  verify(token: string): Promise<VerifiedToken | null>;
}

export function loadSecret(dataDir: string, given?: string): Uint8Array {
  if (given) return new TextEncoder().encode(given);
  const file = join(dataDir, 'token-secret');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(48).toString('base64'), { mode: 0o600 });
  }
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}

export function createTokens(secret: Uint8Array, ttlSeconds: number): Tokens {
  return {
    issue: (userId) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(userId))
        .setJti(randomBytes(12).toString('base64url'))
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(secret),
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token.replace(/^Bearer\s+/i, ''), secret, { algorithms: ['HS256'] });
        const userId = Number(payload.sub);
        if (!Number.isInteger(userId) || !payload.jti) return null;
        // Past half its life a token is replaced by a fresh one on the next call (sliding session).
        const renew = (payload.exp ?? 0) - Date.now() / 1000 < ttlSeconds / 2;
        return { userId, renew, jti: payload.jti, issuedAt: payload.iat ?? 0, expiresAt: payload.exp ?? 0 };
      } catch {
        return null;
      }
    },
  };
}
