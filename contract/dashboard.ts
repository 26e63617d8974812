/**
 * Who sees the dashboard's server card: the host's CPU and memory (/api/home/total-system). Those who
 * watch the system (the system monitor's code, the administrators') and those who handle the rental
 * alarms, whose home is the alarms and the server's load (an officer sees no devices). Anyone else is
 * refused (HTTP 401) and the console does not ask: the host's figures are no business of an account
 * without a code.
 */
export const SYSTEM_LOAD_CODES = ['monitor:system', 'alarm:list'];
