/** Field rules of the login, register and password screens (spec 002 §5), as i18n keys of their messages. */

/** 1, then one of 3 4 5 7 8 9, then nine digits. */
export const PHONE_PATTERN = /^1[345789]\d{9}$/;
export const PHONE_MAX_LENGTH = 11;
/** The message says "more than 6" but six characters are accepted, as in the legacy console. */
export const PASSWORD_MIN_LENGTH = 6;

export function passwordError(password: string): string | undefined {
  if (!password) return 'register.passwordRequired';
  if (password.length < PASSWORD_MIN_LENGTH) return 'register.passwordLength';
  return undefined;
}

export function confirmError(password: string, confirm: string): string | undefined {
  if (!confirm) return 'register.confirmRequired';
  if (confirm !== password) return 'register.mismatch';
  return undefined;
}

export function phoneError(phone: string): string | undefined {
  if (!phone.trim()) return 'register.phoneRequired';
  if (!PHONE_PATTERN.test(phone.trim())) return 'register.phoneFormat';
  return undefined;
}
