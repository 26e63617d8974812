/**
 * Where a person's name in an alarm list leads: the holographic profile page, which looks the person up
 * by user id (and phone when the list has the full number; lists carry masked numbers only).
 */
export function profilePath(userId: unknown, phone?: unknown): string {
  const params = new URLSearchParams({ userId: String(userId) });
  if (typeof phone === 'string' && /^1[3-9]\d{9}$/.test(phone)) params.set('phone', phone);
  return `/hologram?${params.toString()}`;
}

/** Opens the profile of the person with this user id. */
export function openProfile(navigate: (path: string) => void, userId: unknown, phone?: unknown): void {
  navigate(profilePath(userId, phone));
}
