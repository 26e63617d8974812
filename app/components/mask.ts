/** Personal data as lists show it (spec 001: phones 3+4, ID numbers masked). */
export const maskPhone = (phone: unknown): string => {
  const p = typeof phone === 'string' || typeof phone === 'number' ? String(phone) : '';
  return p.length === 11 ? `${p.slice(0, 3)}****${p.slice(7)}` : p;
};

export const maskIdcard = (id: unknown): string => {
  const s = typeof id === 'string' ? id : '';
  if (!s || s.includes('*')) return s;
  return s.length <= 8 ? s : `${s.slice(0, 4)}${'*'.repeat(s.length - 8)}${s.slice(-4)}`;
};
