/**
 * Signed session tokens (HS256 JWT). The secret comes from TOKEN_SECRET, or is generated once and kept
 * in the data folder (replicas sharing a database must share TOKEN_SECRET).
 */
import { hkdfSync, randomBytes } from 'node:crypto';
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
  /**
   * A key for another use of the secret (HKDF-SHA256 with `purpose` as its info): what else the server
   * seals with the secret never uses the signing key itself, and the keys of two purposes are unrelated.
   */
  deriveKey(purpose: string, length?: number): Buffer;
}

/** HKDF's salt: fixed, as the secret is already random; it only sets these keys apart from other uses of HKDF. */
const DERIVE_SALT = 'iot-console/derived-keys';

export function loadSecret(dataDir: string, given?: string): Uint8Array {
  if (given) return new TextEncoder().encode(given);
  const file = join(dataDir, 'token-secret');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(48).toString('base64'), { mode: 0o600 });
  }
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}

/** Tokens whose signature was checked, kept so a caller's next call does not check it again; the oldest go first. */
const MAX_VERIFIED = 50_000;

/**
 * `now`: the installation's clock (server/db/clock.ts, the database's), so that a token issued by a
 * replica whose own clock runs ahead or behind lives as long as any other.
 */
export function createTokens(secret: Uint8Array, ttlSeconds: number, now: () => number = Date.now): Tokens {
  // A signature check is an HMAC on the crypto thread pool, the largest fixed cost of a call: a token
  // checked once stays good until it expires (revocation is the session cache's, server/auth/sessions.ts).
  const verified = new Map<string, Omit<VerifiedToken, 'renew'>>();
  const fresh = (claims: Omit<VerifiedToken, 'renew'>): VerifiedToken | null => {
    const seconds = now() / 1000;
    if (claims.expiresAt <= seconds) return null;
    // Past half its life a token is replaced by a fresh one on the next call (sliding session).
    return { ...claims, renew: claims.expiresAt - seconds < ttlSeconds / 2 };
  };
  return {
    deriveKey: (purpose, length = 32) => Buffer.from(hkdfSync('sha256', secret, DERIVE_SALT, purpose, length)),
    issue: (userId) => {
      const issuedAt = Math.floor(now() / 1000);
      return new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(userId))
        .setJti(randomBytes(12).toString('base64url'))
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ttlSeconds)
        .sign(secret);
    },
    async verify(token) {
      const raw = token.replace(/^Bearer\s+/i, '');
      const known = verified.get(raw);
      if (known) return fresh(known) ?? (verified.delete(raw), null);
      try {
        const { payload } = await jwtVerify(raw, secret, { algorithms: ['HS256'], currentDate: new Date(now()) });
        const userId = Number(payload.sub);
        if (!Number.isInteger(userId) || !payload.jti) return null;
        const claims = { userId, jti: payload.jti, issuedAt: payload.iat ?? 0, expiresAt: payload.exp ?? 0 };
        verified.set(raw, claims);
        if (verified.size > MAX_VERIFIED) verified.delete(verified.keys().next().value!);
        return fresh(claims);
      } catch {
        return null;
      }
    },
  };
}
