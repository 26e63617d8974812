/**
 * Sign-off (spec 001 §4), shared by the console's dialogs and the server's checks: the longest handling
 * note either accepts, and the most alarms one batch sign-off takes. The refusals are codes of the
 * catalogue (schemas/reasons/security.json, `signOff.*`, `alarm.*`, `feedback.*`).
 */
export const NOTE_MAX = 500;
/** The most alarms one batch sign-off takes. */
export const BATCH_MAX = 100;
