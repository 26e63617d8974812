/** The part of node-postgres' own helpers the list bench uses: a value as the driver sends it (no types shipped). */
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): unknown };
  export default utils;
}
