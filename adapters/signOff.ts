/**
 * Sign-off (spec 001 §4), shared by the console's dialog and the server's check: the longest handling
 * note either accepts.
 */
export const NOTE_MAX = 500;
